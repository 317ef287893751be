import type { RedirectTarget } from '../core/link.js';
import type { LookupMetrics } from '../core/metrics-ports.js';
import type { Clock, LinkStore, LocalLinkCache, SharedLinkCache } from '../core/ports.js';

export interface ResolveLinkDeps {
  readonly store: LinkStore;
  /** The in-process tier: the synchronous fast lane of the hot path. */
  readonly local: LocalLinkCache;
  /** The shared tier (Redis), when one is configured. */
  readonly shared?: SharedLinkCache;
  readonly clock: Clock;
  /** Hits and misses per tier, when metrics are on. */
  readonly metrics?: LookupMetrics;
}

type Lookup = RedirectTarget | undefined | Promise<RedirectTarget | undefined>;

/**
 * Finds what a `(domain, code)` redirects to: the in-process tier first (synchronously, for the
 * hot path), then the shared tier, then the database, filling the tiers on the way back. Reads
 * only: nothing here writes to the database. A shared tier that fails is skipped, never fatal.
 */
export class LinkResolver {
  constructor(private readonly deps: ResolveLinkDeps) {}

  /** The in-process answer, `null` for a known-unknown code, `undefined` when it has nothing. */
  fromCache(domain: string, code: string): RedirectTarget | null | undefined {
    const cached = this.deps.local.get(domain, code);
    this.deps.metrics?.lookup('memory', cached === undefined ? 'miss' : 'hit');
    return cached;
  }

  /**
   * Loads from the tiers behind the in-process one: synchronously when the store can and there
   * is no shared tier, else a promise. Throws (or rejects with) StoreUnavailableError when the
   * database is needed and cannot answer.
   */
  load(domain: string, code: string): Lookup {
    // Taken before the lookup: an invalidation that lands while it runs makes its answer stale.
    const generation = this.deps.local.generation;
    if (this.deps.shared) return this.loadThroughShared(this.deps.shared, domain, code, generation);
    const found = this.deps.store.findRedirectTarget(domain, code);
    if (found instanceof Promise) return found.then((target) => this.keepLocally(domain, code, this.counted(target), generation));
    return this.keepLocally(domain, code, this.counted(found), generation);
  }

  private async loadThroughShared(shared: SharedLinkCache, domain: string, code: string, generation: number): Promise<RedirectTarget | undefined> {
    let failed = false;
    const cached = await shared.get(domain, code).catch(() => { failed = true; return undefined; });
    this.deps.metrics?.lookup('redis', failed ? 'error' : cached === undefined ? 'miss' : 'hit');
    if (cached !== undefined) return this.keepLocally(domain, code, cached ?? undefined, generation);
    const target = this.counted(await this.deps.store.findRedirectTarget(domain, code));
    // Not awaited: the redirect does not wait for Redis; a failed fill only costs a later miss.
    shared.remember(domain, code, target, this.deps.clock.now()).catch(() => {});
    return this.keepLocally(domain, code, target, generation);
  }

  /** A database answer, counted: a hit is a code the database knows (live, expired or deleted). */
  private counted(target: RedirectTarget | undefined): RedirectTarget | undefined {
    this.deps.metrics?.lookup('database', target === undefined ? 'miss' : 'hit');
    return target;
  }

  private keepLocally(domain: string, code: string, target: RedirectTarget | undefined, generation: number): RedirectTarget | undefined {
    this.deps.local.remember(domain, code, target, this.deps.clock.now(), generation);
    return target;
  }
}
