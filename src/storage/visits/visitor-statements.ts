import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { VisitorSighting } from '../../core/visitor-ports.js';
import type { Database } from '../schema.js';

/**
 * A batch's visitors (ADR 0028): each id is kept once per link day (`link_visitors`, its key), and
 * only the ones that were new there, whichever instance wrote them first, are added to their hour's
 * `unique_visitors` on the human row of `link_clicks_hourly`. Two flushes racing on PostgreSQL:
 * the second insert of an id waits for the first transaction and then inserts nothing.
 */
export const INSERT_VISITOR_ON_WRITER = `insert into link_visitors (day_start, link_id, visitor_id, hour_start) values (?, ?, ?, ?)
  on conflict do nothing`;
export const ADD_NEW_VISITORS_ON_WRITER = `insert into link_clicks_hourly (link_id, hour_start, visitor_class, clicks, unique_visitors)
  values (?, ?, 'human', 0, ?)
  on conflict (link_id, hour_start, visitor_class) do update set unique_visitors = link_clicks_hourly.unique_visitors + excluded.unique_visitors`;

const ROWS_PER_STATEMENT = 1_000;

/** New visitors by (link, hour). */
class NewVisitors {
  private readonly counts = new Map<string, { linkId: number; hourStart: number; count: number }>();

  add(linkId: number, hourStart: number): void {
    const key = `${linkId} ${hourStart}`;
    const entry = this.counts.get(key);
    if (entry) entry.count += 1;
    else this.counts.set(key, { linkId, hourStart, count: 1 });
  }

  get hours() {
    return [...this.counts.values()];
  }
}

/** PostgreSQL (and SQLite through Kysely): a thousand ids per INSERT, RETURNING the new ones. */
export async function appendVisitorsWithKysely(trx: Kysely<Database>, sightings: readonly VisitorSighting[]): Promise<void> {
  const fresh = new NewVisitors();
  for (let first = 0; first < sightings.length; first += ROWS_PER_STATEMENT) {
    const rows = sightings.slice(first, first + ROWS_PER_STATEMENT)
      .map((s) => ({ day_start: s.dayStart, link_id: s.linkId, visitor_id: s.visitorId, hour_start: s.hourStart }));
    const inserted = await trx.insertInto('link_visitors').values(rows).onConflict((oc) => oc.doNothing())
      .returning(['link_id', 'hour_start']).execute();
    for (const row of inserted) fresh.add(Number(row.link_id), Number(row.hour_start));
  }
  const hours = fresh.hours;
  for (let first = 0; first < hours.length; first += ROWS_PER_STATEMENT) {
    const rows = hours.slice(first, first + ROWS_PER_STATEMENT)
      .map((h) => ({ link_id: h.linkId, hour_start: h.hourStart, visitor_class: 'human' as const, clicks: 0, unique_visitors: h.count }));
    await trx.insertInto('link_clicks_hourly').values(rows)
      .onConflict((oc) => oc.columns(['link_id', 'hour_start', 'visitor_class'])
        .doUpdateSet({ unique_visitors: sql`link_clicks_hourly.unique_visitors + excluded.unique_visitors` }))
      .execute();
  }
}

const prepared = new WeakMap<SQLite.Database, { insert: SQLite.Statement; add: SQLite.Statement }>();

/** The SQLite writer thread: one prepared insert per id, its `changes` telling a new one. */
export function appendVisitorsOnWriter(db: SQLite.Database, sightings: readonly VisitorSighting[]): void {
  if (sightings.length === 0) return;
  let statements = prepared.get(db);
  if (statements === undefined) {
    prepared.set(db, (statements = { insert: db.prepare(INSERT_VISITOR_ON_WRITER), add: db.prepare(ADD_NEW_VISITORS_ON_WRITER) }));
  }
  const fresh = new NewVisitors();
  for (const s of sightings) {
    if (statements.insert.run(s.dayStart, s.linkId, s.visitorId, s.hourStart).changes > 0) fresh.add(s.linkId, s.hourStart);
  }
  for (const h of fresh.hours) statements.add.run(h.linkId, h.hourStart, h.count);
}
