import type { IncomingMessage } from 'node:http';
import type { Clock } from '../core/ports.js';

const WINDOW_MS = 60_000;
/** Distinct clients counted per window at most: past it a new client is let through uncounted, so memory stays bounded. */
const MAX_CLIENTS = 100_000;

/**
 * RATE_LIMIT_REDIRECTS: redirects per client and minute, in fixed one-minute windows counted in
 * this instance's memory. The redirect path answers synchronously from the cache, so a shared
 * (Redis) count would add a round trip to every redirect; behind N instances a client may get up
 * to N times the limit. The client is who `clientOf` says (client-address.ts: the hops TRUST_PROXY
 * believes, as Fastify's `request.ip`).
 */
export class RedirectRateLimit {
  private counts = new Map<string, number>();
  private windowEnd = 0;

  constructor(private readonly perMinute: number, private readonly clock: Clock, private readonly clientOf: (req: IncomingMessage) => string) {}

  /** Counts the request; the seconds to wait when it is over the limit, else 0. */
  retryAfterSeconds(req: IncomingMessage): number {
    const now = this.clock.now();
    if (now >= this.windowEnd) {
      this.counts = new Map();
      this.windowEnd = now + WINDOW_MS;
    }
    const client = this.clientOf(req);
    const count = (this.counts.get(client) ?? 0) + 1;
    if (count > this.perMinute) return Math.max(1, Math.ceil((this.windowEnd - now) / 1000));
    if (count > 1 || this.counts.size < MAX_CLIENTS) this.counts.set(client, count);
    return 0;
  }
}
