import type { Link, NewLink } from './link.js';

/** Wall-clock time in epoch milliseconds; tests pass a controllable one. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Which unique rule an insert broke. */
export type UniqueConflict = 'code' | 'normalized_url';

export type InsertLinkResult =
  | { readonly ok: true; readonly link: Link }
  | { readonly ok: false; readonly conflict: UniqueConflict };

/**
 * Persistence of links. Implementations throw StoreUnavailableError when the database cannot be
 * reached, and report unique-index conflicts as values so callers can retry without a racy pre-check.
 */
export interface LinkStore {
  findLinkByCode(domain: string, code: string): Promise<Link | undefined>;
  findLinkById(id: number): Promise<Link | undefined>;
  insertLink(link: NewLink): Promise<InsertLinkResult>;
  ping(): Promise<void>;
}

/**
 * Invalidation hook: every use case that changes a link calls this with the link's code, so that
 * no cache layer serves a stale answer.
 */
export interface LinkCacheInvalidator {
  invalidate(code: string): void;
}
