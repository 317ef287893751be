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

  /**
   * Loads from the database and fills the cache: synchronously when the store can, else a
   * promise. Throws (or rejects with) StoreUnavailableError when it cannot.
   */
  load(code: string): RedirectTarget | undefined | Promise<RedirectTarget | undefined> {
    const found = this.deps.store.findRedirectTarget(this.deps.domain, code);
    if (found instanceof Promise) return found.then((target) => this.remember(code, target));
    return this.remember(code, found);
  }

  private remember(code: string, target: RedirectTarget | undefined): RedirectTarget | undefined {
    this.deps.cache.remember(code, target, this.deps.clock.now());
    return target;
  }
}
