import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { BreakdownDimension } from '../core/analytics-ports.js';
import { linkDayKey, type StoredDayValues } from '../core/breakdown-folding.js';
import type { Database } from './schema.js';

/**
 * The values `link_breakdown_daily` holds for some link days (by linkDayKey), which the cap on
 * distinct values per day needs before a flush or an import adds its own (ADR 0021). Read by the
 * primary key's prefix (link_id, day_start): a day holds at most the cap's values per dimension
 * and class, so a read is bounded whatever the traffic.
 */

type DayValues = Map<BreakdownDimension, Set<string>>;

function add(days: Map<string, DayValues>, key: string, dimension: BreakdownDimension, value: string): void {
  let day = days.get(key);
  if (day === undefined) days.set(key, (day = new Map()));
  let values = day.get(dimension);
  if (values === undefined) day.set(dimension, (values = new Set()));
  values.add(value);
}

/** Link days per statement: two parameters each. */
const DAYS_PER_STATEMENT = 500;

/** Through Kysely (the PostgreSQL flush and imports): one join with VALUES per 500 link days. */
export async function storedDayValues(db: Kysely<Database>, linkDays: readonly { linkId: number; dayStart: number }[]): Promise<Map<string, StoredDayValues>> {
  const days = new Map<string, DayValues>();
  for (let start = 0; start < linkDays.length; start += DAYS_PER_STATEMENT) {
    const wanted = linkDays.slice(start, start + DAYS_PER_STATEMENT).map((d) => sql`(cast(${d.linkId} as bigint), cast(${d.dayStart} as bigint))`);
    // VALUES columns are column1, column2, … on both databases.
    const { rows } = await sql<{ link_id: number; day_start: number; dimension: BreakdownDimension; value: string }>`
      select b.link_id, b.day_start, b.dimension, b.value from (values ${sql.join(wanted)}) as v
      join link_breakdown_daily b on b.link_id = v.column1 and b.day_start = v.column2`.execute(db);
    for (const row of rows) add(days, linkDayKey(Number(row.link_id), Number(row.day_start)), row.dimension, row.value);
  }
  return days;
}

const statements = new WeakMap<SQLite.Database, SQLite.Statement>();

/** On the SQLite writer thread: one prepared read per link day, inside the flush's transaction. */
export function storedDayValuesOnWriter(db: SQLite.Database, linkDays: readonly { linkId: number; dayStart: number }[]): Map<string, StoredDayValues> {
  let read = statements.get(db);
  if (read === undefined) {
    read = db.prepare('select dimension, value from link_breakdown_daily where link_id = ? and day_start = ?').raw();
    statements.set(db, read);
  }
  const days = new Map<string, DayValues>();
  for (const { linkId, dayStart } of linkDays) {
    const key = linkDayKey(linkId, dayStart);
    for (const [dimension, value] of read.all(linkId, dayStart) as [BreakdownDimension, string][]) add(days, key, dimension, value);
  }
  return days;
}
