import { LRUCache } from 'lru-cache';
import type { RedirectTarget } from '../core/link.js';
import type { Clock, LinkCacheInvalidator } from '../core/ports.js';

/** Marks a code known not to exist (a negative entry). */
export const MISSING = Object.freeze({ missing: true as const });
export type CachedLookup = RedirectTarget | typeof MISSING;

export interface MemoryCacheOptions {
  readonly maxEntries: number;
  readonly linkTtlMs: number;
  readonly tombstoneTtlMs: number;
  readonly negativeTtlMs: number;
  /** Entry lifetimes follow the app's clock, so tests can move time instead of sleeping. */
  readonly clock: Clock;
}

/**
 * The in-process LRU in front of every lookup. Entries are structured, never final answers:
 * the redirect re-checks expiry on every hit. Gone links stay as tombstones so that 410s are
 * cheap; unknown codes are remembered briefly so that probing does not reach the database.
 */
export class MemoryLinkCache implements LinkCacheInvalidator {
  private readonly lru: LRUCache<string, CachedLookup> | undefined;

  constructor(private readonly options: MemoryCacheOptions) {
    this.lru = options.maxEntries > 0 ? new LRUCache({ max: options.maxEntries, ttlAutopurge: false, ttlResolution: 0, perf: options.clock }) : undefined;
  }

  get(code: string): CachedLookup | undefined {
    return this.lru?.get(code);
  }

  remember(code: string, target: RedirectTarget | undefined, now: number): void {
    if (!this.lru) return;
    if (target === undefined) {
      this.lru.set(code, MISSING, { ttl: this.options.negativeTtlMs });
    } else if (target.status !== 'ACTIVE' || (target.expiresAt !== null && target.expiresAt <= now)) {
      this.lru.set(code, target, { ttl: this.options.tombstoneTtlMs });
    } else {
      this.lru.set(code, target, { ttl: this.options.linkTtlMs });
    }
  }

  /** Turns a cached entry into a tombstone, as the reaper does when it marks a link expired. */
  markGone(code: string, status: 'EXPIRED' | 'DELETED'): void {
    const current = this.lru?.get(code);
    if (current && current !== MISSING) {
      this.lru!.set(code, { ...current, status }, { ttl: this.options.tombstoneTtlMs });
    }
  }

  invalidate(code: string): void {
    this.lru?.delete(code);
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }
}
