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

  /** The seconds to wait before this client may try this link again; 0 when it may now. */
  retryAfterSeconds(client: string, linkId: number): number {
    const now = this.roll();
    const count = this.counts.get(`${linkId} ${client}`) ?? 0;
    return count >= this.perMinute ? Math.max(1, Math.ceil((this.windowEnd - now) / 1000)) : 0;
  }

  failed(client: string, linkId: number): void {
    this.roll();
    const key = `${linkId} ${client}`;
    const count = this.counts.get(key);
    if (count !== undefined || this.counts.size < MAX_PAIRS) this.counts.set(key, (count ?? 0) + 1);
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
