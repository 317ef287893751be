import type { LinkExtras, LinkOptions } from './link-options.js';

/**
 * The domain key of links on the default short domain: fixed, never the host of BASE_URL, so
 * that changing BASE_URL or PORT does not orphan a single link.
 */
export const DEFAULT_DOMAIN = 'default';

export type LinkType = 'TEMPORARY' | 'PERMANENT';
export type LinkStatus = 'ACTIVE' | 'EXPIRED' | 'DELETED';
/**
 * What a redirect reads as a link's status: its row's, or `DISABLED` while the service's operator
 * has disabled it (whatever the row's status; the operator's word comes first).
 */
export type RedirectStatus = LinkStatus | 'DISABLED';

/** The statuses a link may redirect with, when it names its own. */
export const LINK_REDIRECT_STATUSES = [301, 302, 307, 308] as const;
export type LinkRedirectStatus = typeof LINK_REDIRECT_STATUSES[number];

/** A stored link as the domain sees it. Times are epoch milliseconds. */
export interface Link {
  readonly id: number;
  readonly domain: string;
  readonly code: string;
  readonly originalUrl: string;
  readonly normalizedUrl: string;
  readonly linkType: LinkType;
  readonly status: LinkStatus;
  readonly workspaceId: number | null;
  readonly ownerId: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly expiresAt: number | null;
  readonly deletedAt: number | null;
  readonly redirectCount: number;
  readonly avgRedirectMs: number;
  /** Redirects counted as people (not crawlers, not link-preview fetchers): what "clicks" means to a user. */
  readonly humanCount: number;
  readonly destinationStatus: number | null;
  readonly lastCheckedAt: number | null;
  /** Set while the service's operator has disabled the link: its redirect answers 410 with `disabledReason`. */
  readonly disabledAt: number | null;
  readonly disabledReason: string | null;
  /** The link's own redirect status; null: the instance's rule (permanent unless the link expires). */
  readonly redirectStatus: LinkRedirectStatus | null;
  /** The link's options (core/link-options.ts); null: none. */
  readonly options: LinkOptions | null;
  /** The bcrypt hash of the link's password; null: no password. Never leaves the server. */
  readonly passwordHash: string | null;
  /** The most people the link serves; null: no limit. */
  readonly maxClicks: number | null;
  /** How many of `maxClicks` are left; null without a limit. */
  readonly clicksLeft: number | null;
}

/** What a link needs to be stored; the store assigns id and counters. */
export interface NewLink {
  readonly domain: string;
  readonly code: string;
  readonly originalUrl: string;
  readonly normalizedUrl: string;
  readonly linkType: LinkType;
  readonly workspaceId: number | null;
  readonly ownerId: number | null;
  readonly claimTokenHash: string | null;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly redirectStatus?: LinkRedirectStatus | null;
  readonly options?: LinkOptions | null;
  readonly passwordHash?: string | null;
  /** Also sets the clicks left to the same number. */
  readonly maxClicks?: number | null;
}

/** Only what a redirect needs: the shape held by every cache layer. */
export interface RedirectTarget {
  readonly url: string;
  readonly expiresAt: number | null;
  readonly status: RedirectStatus;
  readonly linkId: number;
  readonly permanent: boolean;
  /** Only on a DISABLED target (so a plain entry carries no extra field): what its 410 says. */
  readonly disabledReason?: string;
  /** Only on a link that names its own redirect status. */
  readonly redirectStatus?: LinkRedirectStatus;
  /** Only on a link with options, a password or a click limit (ADR 0031). */
  readonly extras?: LinkExtras;
}

/**
 * The status a reader must act on: a link past its expiry is EXPIRED before the reaper marks
 * the row, because expiry is judged from `expiresAt` itself (core/redirect-decision.ts).
 */
export function effectiveStatus<S extends RedirectStatus>(link: { readonly status: S; readonly expiresAt: number | null }, now: number): S | 'EXPIRED' {
  return link.status === 'ACTIVE' && link.expiresAt !== null && link.expiresAt <= now ? 'EXPIRED' : link.status;
}
