import type { Clock } from '../core/ports.js';

const WINDOW_MS = 60_000;
/** Pairs counted per window at most: past it a new pair is let through uncounted, so memory stays bounded. */
const MAX_PAIRS = 100_000;

/**
 * Wrong passwords per client address and link, in fixed one-minute windows counted in this
 * instance's memory (like redirect-rate-limit.ts): behind N instances a client may try N times
 * as many. Only wrong passwords count, so a visitor who mistypes once is not held up.
 */
export class PasswordAttemptLimit {
  private counts = new Map<string, number>();
  private windowEnd = 0;

  constructor(private readonly perMinute: number, private readonly clock: Clock) {}

  /**
   * Counts an attempt before its password is compared, so that attempts sent at once cannot all
   * pass the check; the seconds to wait when the client is over the limit (nothing counted), else 0.
   */
  attempt(client: string, linkId: number): number {
    const now = this.roll();
    const key = `${linkId} ${client}`;
    const count = this.counts.get(key) ?? 0;
    if (count >= this.perMinute) return Math.max(1, Math.ceil((this.windowEnd - now) / 1000));
    if (count > 0 || this.counts.size < MAX_PAIRS) this.counts.set(key, count + 1);
    return 0;
  }

  /** The attempt was the right password: it does not count against the client. */
  succeeded(client: string, linkId: number): void {
    const key = `${linkId} ${client}`;
    const count = this.counts.get(key);
    if (count !== undefined) this.counts.set(key, Math.max(0, count - 1));
  }

  private roll(): number {
    const now = this.clock.now();
    if (now >= this.windowEnd) {
      this.counts = new Map();
      this.windowEnd = now + WINDOW_MS;
    }
    return now;
  }
}
