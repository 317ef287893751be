import type { Link, LinkStatus, NewLink, RedirectTarget } from './link.js';

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
  /**
   * Only what a redirect needs; the one query on the redirect path. A store that can answer
   * without waiting (the embedded reader) answers synchronously, the others with a promise.
   */
  findRedirectTarget(domain: string, code: string): RedirectTarget | undefined | Promise<RedirectTarget | undefined>;
  findLinkByCode(domain: string, code: string): Promise<Link | undefined>;
  findLinkById(id: number): Promise<Link | undefined>;
  insertLink(link: NewLink): Promise<InsertLinkResult>;
  ping(): Promise<void>;
  findLinkByWorkspaceUrl(workspaceId: number, normalizedUrl: string): Promise<Link | undefined>;
  /** `undefined` when no such row exists; a URL change may break the (workspace, URL) index. */
  updateLink(id: number, changes: LinkChanges): Promise<InsertLinkResult | undefined>;
  /** Soft delete; `undefined` when the row does not exist or is already DELETED. */
  markLinkDeleted(id: number, now: number): Promise<Link | undefined>;
  /** DELETED → ACTIVE; `undefined` when the row does not exist or is not DELETED. */
  restoreDeletedLink(id: number, now: number): Promise<Link | undefined>;
  /**
   * One conditional UPDATE: succeeds only while the row is still TEMPORARY with this very token
   * hash, so a token claims at most once. `undefined` when it no longer matches.
   */
  claimTemporaryLink(id: number, claimTokenHash: string, claim: LinkClaim): Promise<InsertLinkResult | undefined>;
  /** A TEMPORARY link still holding a claim token, with that token's hash (kept out of Link). */
  findClaimableLink(domain: string, code: string): Promise<ClaimableLink | undefined>;
  /** Newest first (descending id). */
  listLinks(filter: LinkListFilter): Promise<Link[]>;
}

/** Fields a link's manager may change; absent fields stay as they are. */
export interface LinkChanges {
  readonly originalUrl?: string;
  readonly normalizedUrl?: string;
  /** `null` removes the expiry. Any new expiry revives a link the reaper marked EXPIRED. */
  readonly expiresAt?: number | null;
  readonly updatedAt: number;
}

export interface ClaimableLink {
  readonly link: Link;
  readonly claimTokenHash: string;
}

export interface LinkClaim {
  readonly ownerId: number;
  readonly workspaceId: number;
  readonly now: number;
}

export interface LinkListFilter {
  readonly workspaceIds: readonly number[];
  /** The effective status: a link past its expiry counts as EXPIRED whatever its column says. */
  readonly status?: LinkStatus;
  /** Case-insensitive substring of the code or the original URL. */
  readonly search?: string;
  /** Only links with a smaller id (the cursor). */
  readonly beforeId?: number;
  readonly limit: number;
  readonly now: number;
}

/**
 * Invalidation hook: every use case that changes a link calls this with the link's code, so that
 * no cache layer serves a stale answer.
 */
export interface LinkCacheInvalidator {
  invalidate(code: string): void;
}

/**
 * The redirect cache. `get` answers the cached target, `null` for a code known not to exist, or
 * `undefined` when the cache knows nothing. Entries are never final answers: expiry is re-checked.
 */
export interface LinkCache extends LinkCacheInvalidator {
  get(code: string): RedirectTarget | null | undefined;
  remember(code: string, target: RedirectTarget | undefined, now: number): void;
  /** Turns a cached entry into a tombstone, as the reaper does when it marks a link expired. */
  markGone(code: string, status: 'EXPIRED' | 'DELETED'): void;
}
