import { sql, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { LinkStatus } from '../core/link.js';
import type { DailyClicks, LinkListFilter, ListedLink } from '../core/ports.js';
import type { TagMode } from '../core/tag-ports.js';
import type { Database } from './schema.js';
import { linkRowToLink } from './link-rows.js';
import { holdsNul } from './unstorable-text.js';

type LinksWhere = ExpressionBuilder<Database, 'links'>;
type ListQueryFilter = Omit<LinkListFilter, 'limit'>;

const DAY_MS = 86_400_000;

/** The start of the hour of a link's last click by a person: from the hourly roll-up, the link's own primary-key range. */
function lastClickOf(eb: LinksWhere) {
  return eb.selectFrom('link_clicks_hourly as h')
    .select((h) => h.fn.max('h.hour_start').as('last'))
    .whereRef('h.link_id', '=', 'links.id').where('h.visitor_class', '=', 'human');
}

/** Nothing can match: no workspace, an empty selection, or a search no stored text can hold. */
export function matchesNothing(filter: ListQueryFilter): boolean {
  return filter.workspaceIds.length === 0 || filter.linkIds?.length === 0 || holdsNul(filter.search);
}

function filtered(db: Kysely<Database>, filter: ListQueryFilter) {
  let query = db.selectFrom('links').where('workspace_id', 'in', filter.workspaceIds);
  if (filter.linkIds !== undefined) query = query.where('id', 'in', filter.linkIds);
  if (filter.ownerId !== undefined) query = query.where('owner_id', '=', filter.ownerId);
  if (filter.status !== undefined) query = query.where(effectiveStatusIs(filter.status, filter.now));
  if (filter.search) query = query.where(codeOrUrlContains(filter.search));
  if (filter.tagKeys?.length) query = query.where(carriesTags(filter.tagKeys, filter.tagMode ?? 'any'));
  return query;
}

/** One page of the list in the filter's order; id breaks ties so that pages never overlap. */
export async function selectListedLinks(db: Kysely<Database>, filter: LinkListFilter): Promise<ListedLink[]> {
  let query = filtered(db, filter).selectAll('links').select((eb) => lastClickOf(eb).as('last_click_at'));
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  const direction = filter.ascending ? 'asc' : 'desc';
  if (filter.sort === 'clicks') query = query.orderBy('human_count', direction);
  // A link never clicked sorts as the oldest click: last when newest first, first when oldest first.
  if (filter.sort === 'lastClick') query = query.orderBy((eb) => eb.fn.coalesce(lastClickOf(eb), sql<number>`-1`), direction);
  const rows = await query.orderBy('id', direction).limit(filter.limit).offset(filter.offset ?? 0).execute();
  return rows.map(({ last_click_at: last, ...row }) => ({ ...linkRowToLink(row), lastClickAt: last === null || last === undefined ? null : Number(last) }));
}

export async function countListedLinks(db: Kysely<Database>, filter: ListQueryFilter): Promise<number> {
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll().as('count')).executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Summed in JavaScript from the hourly roll-up: a page is at most a hundred links, and day arithmetic stays out of two SQL dialects. */
export async function selectDailyClicks(db: Kysely<Database>, linkIds: readonly number[], from: number, to: number): Promise<DailyClicks[]> {
  if (linkIds.length === 0) return [];
  const rows = await db.selectFrom('link_clicks_hourly').select(['link_id', 'hour_start', 'clicks'])
    .where('link_id', 'in', linkIds).where('visitor_class', '=', 'human')
    .where('hour_start', '>=', from).where('hour_start', '<', to)
    .execute();
  const days = new Map<string, DailyClicks>();
  for (const row of rows) {
    const linkId = Number(row.link_id);
    const day = Math.floor(Number(row.hour_start) / DAY_MS) * DAY_MS;
    const key = `${linkId}:${day}`;
    days.set(key, { linkId, day, clicks: (days.get(key)?.clicks ?? 0) + Number(row.clicks) });
  }
  return [...days.values()];
}

function effectiveStatusIs(status: LinkStatus, now: number) {
  return (eb: LinksWhere) => {
    if (status === 'DELETED') return eb('status', '=', 'DELETED');
    const pastExpiry = eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', now)]);
    if (status === 'EXPIRED') return eb.or([eb('status', '=', 'EXPIRED'), eb.and([eb('status', '=', 'ACTIVE'), pastExpiry])]);
    return eb.and([eb('status', '=', 'ACTIVE'), eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)])]);
  };
}

/** Links carrying any (or all) of the tags of these keys; a link's tags are always its workspace's (ADR 0030). */
function carriesTags(keys: readonly string[], mode: TagMode) {
  const distinct = [...new Set(keys)];
  return (eb: LinksWhere) => {
    const carried = eb.selectFrom('link_tags').innerJoin('tags', 'tags.id', 'link_tags.tag_id').where('tags.name_key', 'in', distinct);
    if (mode === 'any') return eb('links.id', 'in', carried.select('link_tags.link_id'));
    const count = carried.select((c) => c.fn.countAll<number>().as('n')).whereRef('link_tags.link_id', '=', 'links.id');
    return eb(count, '=', distinct.length);
  };
}

// lower() on both sides because LIKE is case-insensitive in SQLite but not in PostgreSQL;
// '!' escapes the user's own % and _ so they match literally.
function codeOrUrlContains(search: string) {
  const pattern = `%${search.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
  return (eb: LinksWhere) => eb.or([
    sql<SqlBool>`lower(${eb.ref('code')}) like ${pattern} escape '!'`,
    sql<SqlBool>`lower(${eb.ref('original_url')}) like ${pattern} escape '!'`,
  ]);
}
