import type { RedirectTarget } from '../core/link.js';
import type { Clock, LinkCache, LinkStore } from '../core/ports.js';

export interface ResolveLinkDeps {
  readonly store: LinkStore;
  readonly cache: LinkCache;
  readonly clock: Clock;
  readonly domain: string;
}

/**
 * Finds what a code redirects to: the in-process cache first (synchronously, for the hot path),
 * then the database. Reads only: nothing here writes to the database.
 */
export class LinkResolver {
  constructor(private readonly deps: ResolveLinkDeps) {}

  /** The cached answer, `null` for a known-unknown code, `undefined` when the cache has nothing. */
  fromCache(code: string): RedirectTarget | null | undefined {
    return this.deps.cache.get(code);
  }

  /** Loads from the database and fills the cache. Throws StoreUnavailableError when it cannot. */
  async load(code: string): Promise<RedirectTarget | undefined> {
    const target = await this.deps.store.findRedirectTarget(this.deps.domain, code);
    this.deps.cache.remember(code, target, this.deps.clock.now());
    return target;
  }
}
