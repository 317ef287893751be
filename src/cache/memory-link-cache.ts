import { LRUCache } from 'lru-cache';
import { effectiveStatus, type RedirectTarget } from '../core/link.js';
import type { Clock, LinkCache } from '../core/ports.js';

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
export class MemoryLinkCache implements LinkCache {
  private readonly links: LRUCache<string, RedirectTarget> | undefined;
  /** Unknown codes live apart, so a flood of random probes cannot evict real links. */
  private readonly unknown: LRUCache<string, true> | undefined;

  constructor(private readonly options: MemoryCacheOptions) {
    if (options.maxEntries > 0) {
      const common = { ttlAutopurge: false, ttlResolution: 0, perf: options.clock };
      this.links = new LRUCache({ ...common, max: options.maxEntries });
      this.unknown = new LRUCache({ ...common, max: Math.max(1, Math.ceil(options.maxEntries / 4)) });
    }
  }

  get(code: string): RedirectTarget | null | undefined {
    return this.links?.get(code) ?? (this.unknown?.get(code) ? null : undefined);
  }

  remember(code: string, target: RedirectTarget | undefined, now: number): void {
    if (!this.links || !this.unknown) return;
    if (target === undefined) {
      this.unknown.set(code, true, { ttl: this.options.negativeTtlMs });
    } else if (effectiveStatus(target, now) !== 'ACTIVE') {
      this.links.set(code, target, { ttl: this.options.tombstoneTtlMs });
    } else {
      this.links.set(code, target, { ttl: this.options.linkTtlMs });
    }
  }

  markGone(code: string, status: 'EXPIRED' | 'DELETED'): void {
    const current = this.links?.get(code);
    if (current) this.links!.set(code, { ...current, status }, { ttl: this.options.tombstoneTtlMs });
  }

  invalidate(code: string): void {
    this.links?.delete(code);
    this.unknown?.delete(code);
  }

  /** Cached links and tombstones (negative entries are bounded separately, to a quarter of that). */
  get size(): number {
    return this.links?.size ?? 0;
  }
}
