import { LRUCache } from 'lru-cache';
import { effectiveStatus, type RedirectTarget } from '../core/link.js';
import type { Clock, LocalLinkCache } from '../core/ports.js';
import { cacheEntryBytes } from './cache-entry-bytes.js';
import { localLinkKey } from './cache-keys.js';

export interface MemoryCacheOptions {
  readonly maxEntries: number;
  /** What the cached links may hold of the heap, by cacheEntryBytes's estimate: long URLs make fewer entries. */
  readonly maxBytes: number;
  readonly linkTtlMs: number;
  readonly tombstoneTtlMs: number;
  /** `0` keeps no negative entries (scaled mode: a code created elsewhere must resolve at once). */
  readonly negativeTtlMs: number;
  /** Entry lifetimes follow the app's clock, so tests can move time instead of sleeping. */
  readonly clock: Clock;
}

/**
 * The in-process LRU in front of every lookup. Entries are structured, never final answers:
 * the redirect re-checks expiry on every hit. Gone links stay as tombstones so that 410s are
 * cheap; unknown codes are remembered briefly so that probing does not reach the database.
 * Bounded by a count of entries and by the bytes they hold, whichever is reached first.
 */
export class MemoryLinkCache implements LocalLinkCache {
  private readonly links: LRUCache<string, RedirectTarget> | undefined;
  /** Unknown codes live apart, so a flood of random probes cannot evict real links. */
  private readonly unknown: LRUCache<string, true> | undefined;
  private changes = 0;

  constructor(private readonly options: MemoryCacheOptions) {
    if (options.maxEntries > 0) {
      const common = { ttlAutopurge: false, ttlResolution: 0, perf: options.clock };
      // Bounded in bytes as well as in entries: 100,000 links of 4 KiB URLs would hold 400 MiB
      // (ADR 0020, amendment "a cache bounded in bytes"). A link larger than the whole bound is not kept.
      this.links = new LRUCache({ ...common, max: options.maxEntries, maxSize: options.maxBytes, sizeCalculation: (target, key) => cacheEntryBytes(key, target) });
      if (options.negativeTtlMs > 0) this.unknown = new LRUCache({ ...common, max: Math.max(1, Math.ceil(options.maxEntries / 4)) });
    }
  }

  get generation(): number {
    return this.changes;
  }

  get(domain: string, code: string): RedirectTarget | null | undefined {
    const key = localLinkKey(domain, code);
    return this.links?.get(key) ?? (this.unknown?.get(key) ? null : undefined);
  }

  remember(domain: string, code: string, target: RedirectTarget | undefined, now: number, generation?: number): void {
    if (!this.links || (generation !== undefined && generation !== this.changes)) return;
    const key = localLinkKey(domain, code);
    if (target === undefined) {
      this.unknown?.set(key, true, { ttl: this.options.negativeTtlMs });
    } else if (effectiveStatus(target, now) !== 'ACTIVE') {
      this.links.set(key, target, { ttl: this.options.tombstoneTtlMs });
    } else {
      this.links.set(key, target, { ttl: this.options.linkTtlMs });
    }
  }

  markGone(domain: string, code: string, status: 'EXPIRED' | 'DELETED'): void {
    this.changes++;
    const key = localLinkKey(domain, code);
    const current = this.links?.get(key);
    // The operator's disable outlives the row's own status: the entry keeps answering it.
    if (current && current.status !== 'DISABLED') this.links!.set(key, { ...current, status }, { ttl: this.options.tombstoneTtlMs });
  }

  forget(domain: string, code: string): void {
    this.changes++;
    const key = localLinkKey(domain, code);
    this.links?.delete(key);
    this.unknown?.delete(key);
  }

  clear(): void {
    this.changes++;
    this.links?.clear();
    this.unknown?.clear();
  }

  /** Cached links and tombstones (negative entries are bounded separately, to a quarter of that). */
  get size(): number {
    return this.links?.size ?? 0;
  }
}
