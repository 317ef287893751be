import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { VisitBatch, VisitFacts } from '../../core/visit-ports.js';
import type { Database } from '../schema.js';

/**
 * A visit row points at its facts in `visit_facts`, each distinct set of facts stored once
 * (migration 009, ADR 0016 "Narrow visit rows"). Its unique index reads an unknown value (NULL)
 * as '', so a set of facts is one row however many of its values are unknown; these helpers match
 * on the same terms. A facts row is never updated but for `last_used_at`, the latest time of a
 * visit that points at it (migration 010): the reaper deletes a row once that is past visit
 * retention, when no visit points at it any more (ADR 0021), so a visit's facts id stays good.
 */

/** The facts as the unique index sees them, in its column order. */
const keyOf = (f: VisitFacts) => [f.visitorClass, f.referrerHost ?? '', f.browser ?? '', f.os ?? '', f.device ?? '', f.country ?? '', f.region ?? '', f.city ?? '', f.destination ?? ''] as const;

/** The row of a new set: '' is stored as unknown, as migration 009 stored it. */
const rowOf = (f: VisitFacts, lastUsedAt: number) => ({
  visitor_class: f.visitorClass, referrer_host: f.referrerHost || null, browser: f.browser || null, os: f.os || null, device: f.device || null,
  country: f.country || null, region: f.region || null, city: f.city || null, destination: f.destination || null, last_used_at: lastUsedAt,
});

/**
 * The latest visit time of each of `batch.facts` among the visits at `positions` (NaN for facts
 * no such visit uses: those need no row).
 */
export function lastUsedOf(batch: Pick<VisitBatch, 'visitedAt' | 'factsIndex' | 'facts'>, positions: ArrayLike<number>): Float64Array {
  const lastUsed = new Float64Array(batch.facts.length).fill(Number.NaN);
  for (let k = 0; k < positions.length; k++) {
    const i = positions[k]!;
    const f = batch.factsIndex[i]!;
    const at = batch.visitedAt[i]!;
    if (!(lastUsed[f]! >= at)) lastUsed[f] = at;
  }
  return lastUsed;
}

/** Facts per statement: eleven parameters each, well under either database's bound. */
const FACTS_PER_STATEMENT = 500;

/** The unique index's expressions, as an upsert's conflict target (both databases accept them). */
const CONFLICT_TARGET = sql`visitor_class, (coalesce(referrer_host, '')), (coalesce(browser, '')), (coalesce(os, '')), (coalesce(device, '')), (coalesce(country, '')), (coalesce(region, '')), (coalesce(city, '')), (coalesce(destination, ''))`;
const LATER_USE = sql<number>`case when excluded.last_used_at > visit_facts.last_used_at then excluded.last_used_at else visit_facts.last_used_at end`;

/**
 * The `visit_facts` id of each of `facts` that `lastUsed` gives a time (the answer's i-th is that
 * of `facts[i]`, 0 for the others; without `lastUsed`, every one at time 0), adding the sets that are not there yet and moving each one's
 * `last_used_at` forward. The upsert locks each row until the transaction ends, so the reaper's
 * DELETE of an old row waits for it and then sees the new time (PostgreSQL re-checks its WHERE);
 * sets go in key order, so two transactions lock shared rows in the same order.
 */
export async function visitFactsIds(db: Kysely<Database>, facts: readonly VisitFacts[], lastUsed: ArrayLike<number> = new Float64Array(facts.length)): Promise<number[]> {
  const keys = facts.map((f) => JSON.stringify(keyOf(f)));
  const distinct = new Map<string, { facts: VisitFacts; lastUsed: number }>();
  facts.forEach((f, i) => {
    const at = lastUsed[i]!;
    if (Number.isNaN(at)) return;
    const seen = distinct.get(keys[i]!);
    if (seen === undefined || seen.lastUsed < at) distinct.set(keys[i]!, { facts: f, lastUsed: at });
  });
  const ids = new Map<string, number>();
  const sets = [...distinct].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (let start = 0; start < sets.length; start += FACTS_PER_STATEMENT) {
    const part = sets.slice(start, start + FACTS_PER_STATEMENT);
    const rows = await db.insertInto('visit_facts').values(part.map(([, set]) => rowOf(set.facts, set.lastUsed)))
      .onConflict((oc) => oc.expression(CONFLICT_TARGET).doUpdateSet({ last_used_at: LATER_USE }))
      .returning(['id', 'visitor_class', 'referrer_host', 'browser', 'os', 'device', 'country', 'region', 'city', 'destination'])
      .execute();
    for (const row of rows) {
      const key = keyOf({ visitorClass: row.visitor_class, referrerHost: row.referrer_host, browser: row.browser, os: row.os, device: row.device, country: row.country, region: row.region, city: row.city, destination: row.destination });
      ids.set(JSON.stringify(key), Number(row.id));
    }
  }
  return keys.map((key, i) => (Number.isNaN(lastUsed[i]!) ? 0 : ids.get(key)!));
}

export const UPSERT_FACTS_ON_WRITER = `insert into visit_facts (visitor_class, referrer_host, browser, os, device, country, region, city, destination, last_used_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  on conflict (visitor_class, (coalesce(referrer_host, '')), (coalesce(browser, '')), (coalesce(os, '')), (coalesce(device, '')), (coalesce(country, '')), (coalesce(region, '')), (coalesce(city, '')), (coalesce(destination, '')))
  do update set last_used_at = max(last_used_at, excluded.last_used_at) returning id`;

const writerStatements = new WeakMap<SQLite.Database, SQLite.Statement>();

/**
 * The same on the SQLite writer thread's own connection: one upsert per distinct set a visit
 * uses, answering its id. The writer is the only one that writes, so nothing else can add or
 * delete a set in between.
 */
export function visitFactsIdsOnWriter(db: SQLite.Database, facts: readonly VisitFacts[], lastUsed: ArrayLike<number>): number[] {
  let upsert = writerStatements.get(db);
  if (upsert === undefined) writerStatements.set(db, (upsert = db.prepare(UPSERT_FACTS_ON_WRITER).pluck()));
  // Two entries of `facts` can be one set (two User-Agents of one browser): the later use wins.
  const upserted = new Map<string, { id: number; at: number }>();
  return facts.map((f, i) => {
    const at = lastUsed[i]!;
    if (Number.isNaN(at)) return 0;
    const text = JSON.stringify(keyOf(f));
    let set = upserted.get(text);
    if (set === undefined || at > set.at) {
      const row = rowOf(f, at);
      set = { id: Number(upsert.get(row.visitor_class, row.referrer_host, row.browser, row.os, row.device, row.country, row.region, row.city, row.destination, row.last_used_at)), at };
      upserted.set(text, set);
    }
    return set.id;
  });
}
