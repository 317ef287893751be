import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { VisitFacts } from '../core/analytics-ports.js';
import type { Database } from './schema.js';

/**
 * A visit row points at its facts in `visit_facts`, each distinct set of facts stored once
 * (migration 009, ADR 0016 "Narrow visit rows"). Its unique index reads an unknown value (NULL)
 * as '', so a set of facts is one row however many of its values are unknown; these helpers match
 * on the same terms. Facts rows are never updated or deleted: a visit's id for them stays good.
 */

/** The facts as the unique index sees them, in its column order. */
const keyOf = (f: VisitFacts) => [f.visitorClass, f.referrerHost ?? '', f.browser ?? '', f.os ?? '', f.device ?? ''] as const;

/** The row of a new set: '' is stored as unknown, as migration 009 stored it. */
const rowOf = (f: VisitFacts) => ({ visitor_class: f.visitorClass, referrer_host: f.referrerHost || null, browser: f.browser || null, os: f.os || null, device: f.device || null });

/** Facts per statement: six parameters each, well under either database's bound. */
const FACTS_PER_STATEMENT = 500;

/**
 * The `visit_facts` id of each of `facts` (the answer's i-th is that of `facts[i]`), adding the
 * sets that are not there yet. ON CONFLICT DO NOTHING lets two transactions add one set at once
 * (two instances flushing on PostgreSQL): the second waits for the first and then finds its row.
 */
export async function visitFactsIds(db: Kysely<Database>, facts: readonly VisitFacts[]): Promise<number[]> {
  const keys = facts.map((f) => JSON.stringify(keyOf(f)));
  const distinct = new Map<string, VisitFacts>();
  facts.forEach((f, i) => distinct.set(keys[i]!, f));
  const ids = new Map<string, number>();
  const sets = [...distinct];
  for (let start = 0; start < sets.length; start += FACTS_PER_STATEMENT) {
    const part = sets.slice(start, start + FACTS_PER_STATEMENT);
    await db.insertInto('visit_facts').values(part.map(([, f]) => rowOf(f))).onConflict((oc) => oc.doNothing()).execute();
    // VALUES columns are column1, column2, … on both databases.
    const wanted = part.map(([, f], i) => sql`(cast(${i} as integer), ${sql.join(keyOf(f))})`);
    const { rows } = await sql<{ id: number; position: number }>`
      select f.id, v.column1 as position from (values ${sql.join(wanted)}) as v
      join visit_facts f on f.visitor_class = v.column2 and coalesce(f.referrer_host, '') = v.column3
        and coalesce(f.browser, '') = v.column4 and coalesce(f.os, '') = v.column5 and coalesce(f.device, '') = v.column6`.execute(db);
    for (const row of rows) ids.set(part[Number(row.position)]![0], Number(row.id));
  }
  return keys.map((key) => ids.get(key)!);
}

const SQLITE_SQL = {
  find: `select id from visit_facts where visitor_class = ? and coalesce(referrer_host, '') = ? and coalesce(browser, '') = ?
    and coalesce(os, '') = ? and coalesce(device, '') = ?`,
  add: 'insert into visit_facts (visitor_class, referrer_host, browser, os, device) values (?, ?, ?, ?, ?)',
};

const sqliteStatements = new WeakMap<SQLite.Database, { find: SQLite.Statement; add: SQLite.Statement }>();

/**
 * The same on the SQLite writer thread's own connection: one lookup per distinct set, and an
 * insert for a new one. The flush's transaction has written already and holds the file's write
 * lock, so no other writer can add the set between the lookup and the insert.
 */
export function visitFactsIdsOnWriter(db: SQLite.Database, facts: readonly VisitFacts[]): number[] {
  let statements = sqliteStatements.get(db);
  if (statements === undefined) {
    statements = { find: db.prepare(SQLITE_SQL.find).pluck(), add: db.prepare(SQLITE_SQL.add) };
    sqliteStatements.set(db, statements);
  }
  const { find, add } = statements;
  const ids = new Map<string, number>();
  return facts.map((f) => {
    const key = keyOf(f);
    const text = JSON.stringify(key);
    let id = ids.get(text);
    if (id === undefined) {
      const found = find.get(...key) as number | undefined;
      const row = rowOf(f);
      id = found ?? Number(add.run(row.visitor_class, row.referrer_host, row.browser, row.os, row.device).lastInsertRowid);
      ids.set(text, id);
    }
    return id;
  });
}
