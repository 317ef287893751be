/**
 * When a failed delivery is tried again (ADR 0035): the wait after the n-th failed attempt is the
 * n-th delay, the last one repeating; undefined once the event is older than `giveUpAfterMs` at
 * that time (it is given up).
 */
export function nextAttemptAt(attempts: number, occurredAt: number, now: number, delaysMs: readonly number[], giveUpAfterMs: number): number | undefined {
  const delay = delaysMs[Math.min(attempts, delaysMs.length) - 1] ?? delaysMs[0] ?? 0;
  const next = now + delay;
  return next - occurredAt > giveUpAfterMs ? undefined : next;
}
