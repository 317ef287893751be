import type { Kysely } from 'kysely';
import type { VisitFacts, VisitorClass } from '../../src/core/visit-ports.js';
import type { Database, LinkBreakdownDailyRow } from '../../src/storage/schema.js';
import { visitFactsIds } from '../../src/storage/visits/visit-facts.js';
import { visitRangesOf } from '../../src/storage/visits/visit-ranges.js';

/**
 * Rows of the visit tables written straight with Kysely, as the write side (the flusher's
 * VisitWriter) leaves them: the read side and the reaper are tested on these.
 */
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** `uniqueVisitors` go on the human row (ADR 0028); without them the rows name no column migration 017 added. */
export async function insertHourlyClicks(
  db: Kysely<Database>, linkId: number, hourStart: number, clicks: Partial<Record<VisitorClass, number>>, uniqueVisitors = 0,
): Promise<void> {
  const rows = Object.entries(clicks).map(([visitorClass, n]) => ({
    link_id: linkId, hour_start: hourStart, visitor_class: visitorClass as VisitorClass, clicks: n,
    ...(uniqueVisitors > 0 && { unique_visitors: visitorClass === 'human' ? uniqueVisitors : 0 }),
  }));
  if (rows.length > 0) await db.insertInto('link_clicks_hourly').values(rows).execute();
}

export async function insertBreakdown(
  db: Kysely<Database>, linkId: number, dayStart: number, dimension: LinkBreakdownDailyRow['dimension'], value: string,
  clicks: Partial<Record<VisitorClass, number>>,
): Promise<void> {
  const rows = Object.entries(clicks).map(([visitorClass, n]) => ({
    link_id: linkId, day_start: dayStart, dimension, value, visitor_class: visitorClass as VisitorClass, clicks: n,
  }));
  if (rows.length > 0) await db.insertInto('link_breakdown_daily').values(rows).execute();
}

export async function setGlobalStats(db: Kysely<Database>, values: { total: number; avgMs: number; human: number; bot: number; preview: number }): Promise<void> {
  await db.updateTable('global_stats').set({
    total_redirects: values.total, avg_latency_ms: values.avgMs,
    human_redirects: values.human, bot_redirects: values.bot, preview_redirects: values.preview,
  }).where('id', '=', 1).execute();
}

/** `count` raw visit rows of one link, one a minute apart from `from`, with their range as a flush writes it. */
export async function insertVisits(db: Kysely<Database>, linkId: number, from: number, count: number, visitorClass: VisitorClass = 'human'): Promise<void> {
  const facts = { visitorClass, referrerHost: 'news.example', browser: 'Firefox', os: 'Linux', device: 'desktop' };
  const [factsId] = await visitFactsIds(db, [facts], [from + (count - 1) * 60_000]);
  const rows = Array.from({ length: count }, (_, i) => ({ link_id: linkId, visited_at: from + i * 60_000, facts_id: factsId!, latency_ms: 1.5 }));
  for (let i = 0; i < rows.length; i += 200) {
    const inserted = await db.insertInto('visits').values(rows.slice(i, i + 200)).returning(['id', 'link_id']).execute();
    await db.insertInto('visit_ranges').values(visitRangesOf(inserted.map((row) => Number(row.id)), inserted.map((row) => Number(row.link_id)))).execute();
  }
}

/** Visit rows with their facts (a join with visit_facts, migration 009), in id order. */
export function visitsWithFacts(db: Kysely<Database>) {
  return db.selectFrom('visits').innerJoin('visit_facts as f', 'f.id', 'visits.facts_id')
    .select(['visits.id', 'visits.link_id', 'visits.visited_at', 'visits.latency_ms', 'f.visitor_class', 'f.referrer_host', 'f.browser', 'f.os', 'f.device'])
    .orderBy('visits.id');
}

/** The ids of a link's visit rows, and its visit ranges as [first, last], both in order. */
export async function visitIdsAndRanges(db: Kysely<Database>, linkId: number): Promise<{ ids: number[]; ranges: number[][] }> {
  const ids = await db.selectFrom('visits').select('id').where('link_id', '=', linkId).orderBy('id').execute();
  const ranges = await db.selectFrom('visit_ranges').select(['first_id', 'last_id']).where('link_id', '=', linkId).orderBy('first_id').execute();
  return { ids: ids.map((row) => Number(row.id)), ranges: ranges.map((row) => [Number(row.first_id), Number(row.last_id)]) };
}

export async function visitLinkIds(db: Kysely<Database>): Promise<number[]> {
  const rows = await db.selectFrom('visits').select('link_id').orderBy('link_id').orderBy('visited_at').execute();
  return rows.map((row) => Number(row.link_id));
}

export async function countRows(db: Kysely<Database>, table: 'visits' | 'link_clicks_hourly' | 'link_breakdown_daily'): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Visit rows of one link with the facts given, written as one flush writes them (one range). */
export async function insertVisitsWithFacts(db: Kysely<Database>, linkId: number, visits: ReadonlyArray<{ at: number; facts: VisitFacts }>): Promise<void> {
  const factsIds = await visitFactsIds(db, visits.map((visit) => visit.facts), visits.map((visit) => visit.at));
  const rows = visits.map((visit, i) => ({ link_id: linkId, visited_at: visit.at, facts_id: factsIds[i]!, latency_ms: 1 }));
  const inserted = await db.insertInto('visits').values(rows).returning(['id', 'link_id']).execute();
  await db.insertInto('visit_ranges').values(visitRangesOf(inserted.map((row) => Number(row.id)), inserted.map((row) => Number(row.link_id)))).execute();
}
