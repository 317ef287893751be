import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { BreakdownDimension, DailyBreakdown, LinkDay, StoredDayValues } from '../../core/visit-ports.js';
import { linkDayKey } from '../../core/breakdown-folding.js';
import type { Database } from '../schema.js';

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
export async function storedDayValues(db: Kysely<Database>, linkDays: readonly LinkDay[]): Promise<Map<string, StoredDayValues>> {
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

/**
 * What the writer thread remembers of small link days between flushes, so that a hot link's day
 * is read once, not once per flush (the reads were a fifth of the flush's CPU for 1,000 hot
 * links). It may hold values the database lacks (a task rolled back after writing them), which
 * only leaves less room under the cap, never more; it must hold every value the database has, so
 * each flush adds what it writes. Imports write only links they create, which no flush has seen.
 */
interface WriterDays {
  readonly read: SQLite.Statement;
  readonly remembered: Map<string, DayValues>;
}

/** Link days remembered at most, and values per day (all dimensions): a few MB of the writer's heap. */
const REMEMBERED_DAYS = 4_096;
const REMEMBERED_VALUES = 32;

export const READ_DAY_VALUES_ON_WRITER = 'select dimension, value from link_breakdown_daily where link_id = ? and day_start = ?';

const writerDays = new WeakMap<SQLite.Database, WriterDays>();

function writerDaysOf(db: SQLite.Database): WriterDays {
  let days = writerDays.get(db);
  if (days === undefined) {
    const read = db.prepare(READ_DAY_VALUES_ON_WRITER).raw();
    writerDays.set(db, (days = { read, remembered: new Map() }));
  }
  return days;
}

/** On the SQLite writer thread: a link day's values from memory, or one prepared read inside the flush's transaction. */
export function storedDayValuesOnWriter(db: SQLite.Database, linkDays: readonly LinkDay[]): Map<string, StoredDayValues> {
  const { read, remembered } = writerDaysOf(db);
  const days = new Map<string, DayValues>();
  for (const { linkId, dayStart } of linkDays) {
    const key = linkDayKey(linkId, dayStart);
    const known = remembered.get(key);
    if (known !== undefined) {
      days.set(key, known);
      continue;
    }
    const rows = read.all(linkId, dayStart) as [BreakdownDimension, string][];
    for (const [dimension, value] of rows) add(days, key, dimension, value);
    if (rows.length > REMEMBERED_VALUES) continue;
    if (remembered.size >= REMEMBERED_DAYS) remembered.clear();
    let day = days.get(key);
    if (day === undefined) days.set(key, (day = new Map()));
    remembered.set(key, day);
  }
  return days;
}

/** After a flush wrote `rows` on the writer thread: the remembered days learn their new values. */
export function rememberWrittenValues(db: SQLite.Database, rows: readonly DailyBreakdown[]): void {
  const { remembered } = writerDaysOf(db);
  for (const { linkId, dayStart, dimension, value } of rows) {
    const key = linkDayKey(linkId, dayStart);
    const day = remembered.get(key);
    if (day === undefined) continue;
    let values = day.get(dimension);
    if (values === undefined) day.set(dimension, (values = new Set()));
    values.add(value);
    let total = 0;
    for (const set of day.values()) total += set.size;
    if (total > REMEMBERED_VALUES) remembered.delete(key);
  }
}
