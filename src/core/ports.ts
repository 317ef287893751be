import type { LinkOptions } from './link-options.js';
import type { Link, LinkRedirectStatus, LinkStatus, NewLink, RedirectTarget } from './link.js';
import type { TagMode } from './tag-ports.js';

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
  /** Newest first (descending id) unless `filter.sort` says otherwise; ties broken by id. */
  listLinks(filter: LinkListFilter): Promise<ListedLink[]>;
  /** How many links the filter matches, ignoring its cursor, offset and limit. */
  countLinks(filter: Omit<LinkListFilter, 'limit'>): Promise<number>;
  /** People's clicks per UTC day in [from, to), per link; days without clicks are absent. */
  listDailyClicks(linkIds: readonly number[], from: number, to: number): Promise<DailyClicks[]>;
  /** Soft-deletes every listed link not yet DELETED, in one statement; answers those it changed. */
  markLinksDeleted(ids: readonly number[], now: number): Promise<Link[]>;
  /** Brings back every listed DELETED link, in one statement; answers those it changed. */
  restoreDeletedLinks(ids: readonly number[], now: number): Promise<Link[]>;
  /** Moves every listed link to a workspace in one statement: all of them, or none on a unique conflict. */
  moveLinks(ids: readonly number[], workspaceId: number, now: number): Promise<{ readonly ok: true; readonly moved: number } | { readonly ok: false; readonly conflict: UniqueConflict }>;
}

/** A link as a list shows it: with the start of the hour of its last click by a person, if any. */
export interface ListedLink extends Link {
  readonly lastClickAt: number | null;
}

export interface DailyClicks {
  readonly linkId: number;
  /** Start of the UTC day, epoch milliseconds. */
  readonly day: number;
  readonly clicks: number;
}

/** The orders a link list offers; `created` is the id order (ids grow with creation). */
export type LinkSort = 'created' | 'clicks' | 'lastClick';

/** Fields a link's manager may change; absent fields stay as they are. */
export interface LinkChanges {
  readonly originalUrl?: string;
  readonly normalizedUrl?: string;
  /** `null` removes the expiry. Any new expiry revives a link the reaper marked EXPIRED. */
  readonly expiresAt?: number | null;
  /** `null` goes back to the instance's rule. */
  readonly redirectStatus?: LinkRedirectStatus | null;
  /** The whole options value; `null` removes every option. */
  readonly options?: LinkOptions | null;
  /** `null` removes the password. */
  readonly passwordHash?: string | null;
  /** `null` removes the limit; a number sets the limit and the clicks left afresh. */
  readonly maxClicks?: number | null;
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
  /** Only these links (a selection), still within `workspaceIds`. */
  readonly linkIds?: readonly number[];
  /** Only links this user created. */
  readonly ownerId?: number;
  /** Only links carrying tags of these keys (core/tag-rules.ts): any of them, or all with `tagMode` `all`. */
  readonly tagKeys?: readonly string[];
  readonly tagMode?: TagMode;
  /** Only links with a smaller id (the cursor); only with the default order. */
  readonly beforeId?: number;
  /** `created` when absent; `ascending` false when absent. */
  readonly sort?: LinkSort;
  readonly ascending?: boolean;
  /** Rows skipped before the first answered (page numbers). */
  readonly offset?: number;
  readonly limit: number;
  readonly now: number;
}

/**
 * Invalidation: every use case that changes a link awaits this with the link's domain and code, so
 * that no cache tier on any instance serves a stale answer. It never rejects: a tier it cannot
 * reach (Redis down) is caught up when it returns, and the write that called it stands.
 */
export interface LinkCacheInvalidator {
  invalidate(domain: string, code: string): Promise<void>;
  /** The reaper marked the link EXPIRED: cached entries become tombstones (or are dropped). */
  markGone(domain: string, code: string, status: 'EXPIRED' | 'DELETED'): Promise<void>;
}

/**
 * The in-process tier, read synchronously on the hot path. `get` answers the cached target,
 * `null` for a code known not to exist, or `undefined` when it knows nothing. Entries are never
 * final answers: expiry is re-checked on every hit.
 */
export interface LocalLinkCache {
  get(domain: string, code: string): RedirectTarget | null | undefined;
  /**
   * Fills the tier after a lookup. `generation` is what `generation` read before the lookup
   * began: when any invalidation happened since, the answer may be stale and is not kept.
   */
  remember(domain: string, code: string, target: RedirectTarget | undefined, now: number, generation?: number): void;
  markGone(domain: string, code: string, status: 'EXPIRED' | 'DELETED'): void;
  forget(domain: string, code: string): void;
  /** Drops everything (after invalidations may have been missed). */
  clear(): void;
  /** Grows with every forget/markGone/clear. */
  readonly generation: number;
}

/**
 * The shared tier (Redis) behind the in-process one. Every method may reject when the tier is
 * unreachable or slow; callers fall back to the database. `get` answers like LocalLinkCache.get.
 */
export interface SharedLinkCache {
  get(domain: string, code: string): Promise<RedirectTarget | null | undefined>;
  remember(domain: string, code: string, target: RedirectTarget | undefined, now: number): Promise<void>;
}

/** Readiness: whether this instance can serve what needs the database. */
export interface ReadinessCheck {
  ping(): Promise<void>;
}

/**
 * Where rate-limit counters live when instances share them: a Redis client (opaque here: the
 * rate-limit plugin speaks to it) and the key namespace of this deployment.
 */
export interface SharedRateLimitStore {
  readonly redis: unknown;
  readonly nameSpace: string;
}
