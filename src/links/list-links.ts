import { LinkforgeError } from '../core/errors.js';
import type { Link, LinkStatus } from '../core/link.js';
import type { LinkListFilter, LinkSort, ListedLink } from '../core/ports.js';
import type { Principal } from '../core/principal.js';
import type { TagMode } from '../core/tag-ports.js';
import { parseTagName, tagNameKey } from '../core/tag-rules.js';
import { permissionsOf, requireMembership, type LinkPermissions, type OwnedLinkDeps } from './link-access.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Days of the small click trend a list shows per link, today included. */
export const TREND_DAYS = 14;
const DAY_MS = 86_400_000;

/** Which links: the filters a list, a bulk action and an export share. */
export interface LinkMatch {
  /** One workspace; absent: every workspace the caller belongs to. */
  readonly workspaceId?: number;
  readonly status?: LinkStatus;
  readonly search?: string;
  /** Only the caller's own links. */
  readonly mine?: boolean;
  /** Only links carrying these tags (names): any of them, or all with `tagMode` `all`. */
  readonly tags?: readonly string[];
  readonly tagMode?: TagMode;
}

export interface ListLinksQuery extends LinkMatch {
  readonly cursor?: string;
  readonly sort?: LinkSort;
  readonly ascending?: boolean;
  readonly offset?: number;
  readonly limit?: number;
}

export interface LinkPage {
  readonly items: ListedLink[];
  readonly nextCursor: string | null;
  /** Every link the filters match, for "1–20 of 55". */
  readonly total: number;
}

/**
 * "The caller's links" are the links of every workspace the caller belongs to, newest first,
 * whoever created them: the dashboard shows shared workspaces too. Two ways to page: the cursor
 * (the last id seen, opaque, stable while links are added) in the default order, or an offset in
 * any order, which page numbers and totals need.
 */
export async function listLinks(deps: OwnedLinkDeps, principal: Principal, query: ListLinksQuery): Promise<LinkPage> {
  const limit = Math.min(Math.max(query.limit ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const custom = (query.sort !== undefined && query.sort !== 'created') || query.ascending === true || (query.offset ?? 0) > 0;
  if (query.cursor !== undefined && custom) throw new LinkforgeError('cursor_invalid', 'A cursor pages the default order only; with sort or offset, page by offset.');
  const filter = await matchFilter(deps, principal, query);
  const [rows, total] = await Promise.all([
    deps.store.listLinks({
      ...filter, sort: query.sort, ascending: query.ascending, offset: query.offset,
      beforeId: query.cursor === undefined ? undefined : decodeCursor(query.cursor), limit: limit + 1,
    }),
    deps.store.countLinks(filter),
  ]);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const more = rows.length > limit && last !== undefined && !custom;
  return { items, nextCursor: more ? encodeCursor(last.id) : null, total };
}

/** The store filter of a match, scoped to the workspaces the caller belongs to (a non-member's workspace is a 404). */
export async function matchFilter(deps: OwnedLinkDeps, principal: Principal, match: LinkMatch): Promise<Omit<LinkListFilter, 'limit'>> {
  const workspaceIds = match.workspaceId === undefined
    ? await deps.workspaces.workspaceIdsOf(principal)
    : [match.workspaceId];
  if (match.workspaceId !== undefined) await requireMembership(deps, principal, match.workspaceId);
  return {
    workspaceIds,
    status: match.status,
    search: match.search?.trim() || undefined,
    ownerId: match.mine ? principal.userId : undefined,
    tagKeys: match.tags === undefined ? undefined : match.tags.map((name) => tagNameKey(parseTagName(name, 'tags'))),
    tagMode: match.tagMode,
    now: deps.clock.now(),
  };
}

export interface LinkListExtras {
  readonly permissions: LinkPermissions;
  /** People's clicks per UTC day, the last TREND_DAYS days, oldest first. */
  readonly trend: number[];
}

/** What the caller may do with each link: one role lookup per workspace among them. */
export async function permissionsOfLinks(deps: OwnedLinkDeps, principal: Principal, links: readonly Link[]): Promise<Map<number, LinkPermissions>> {
  const workspaceIds = [...new Set(links.map((link) => link.workspaceId).filter((id) => id !== null))];
  const roles = new Map(await Promise.all(workspaceIds.map(async (id) => [id, await deps.workspaces.roleIn(principal, id)] as const)));
  return new Map(links.map((link) => {
    const role = link.workspaceId === null ? undefined : roles.get(link.workspaceId);
    return [link.id, role === undefined ? { edit: false, delete: false } : permissionsOf(role, link, principal)];
  }));
}

/** What a list shows beside each link: what the caller may do with it, and its recent clicks. */
export async function describeListedLinks(deps: OwnedLinkDeps, principal: Principal, links: readonly ListedLink[]): Promise<Map<number, LinkListExtras>> {
  const permissions = await permissionsOfLinks(deps, principal, links);
  const today = Math.floor(deps.clock.now() / DAY_MS) * DAY_MS;
  const from = today - (TREND_DAYS - 1) * DAY_MS;
  const days = await deps.store.listDailyClicks(links.map((link) => link.id), from, today + DAY_MS);
  const extras = new Map<number, LinkListExtras>();
  for (const link of links) extras.set(link.id, { permissions: permissions.get(link.id)!, trend: new Array<number>(TREND_DAYS).fill(0) });
  for (const day of days) {
    const trend = extras.get(day.linkId)?.trend;
    if (trend) trend[(day.day - from) / DAY_MS] = day.clicks;
  }
  return extras;
}

export function encodeCursor(id: number): string {
  return Buffer.from(String(id), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = Number(text);
  if (!/^[1-9]\d{0,15}$/.test(text) || !Number.isSafeInteger(id)) throw new LinkforgeError('cursor_invalid');
  return id;
}
