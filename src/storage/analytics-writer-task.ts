import type SQLite from 'better-sqlite3';
import type { AnalyticsBatch } from '../core/analytics-ports.js';
import { visitsByLink } from '../core/analytics-batch.js';
import { rollUp } from '../core/analytics-rollups.js';
import { foldedBatch, linkDaysOf } from '../core/breakdown-folding.js';
import { rememberWrittenValues, storedDayValuesOnWriter } from './breakdown-values.js';
import { lastUsedOf, visitFactsIdsOnWriter } from './visit-facts.js';

/**
 * The analytics flush on the embedded database, run by the writer thread itself (ADR 0016): the
 * batch arrives as one message and is rolled up and written with prepared statements there, so
 * the redirect thread neither groups visits nor binds a parameter. What it writes is what
 * analytics-store.ts writes on PostgreSQL, and the same contract suite holds both
 * (test/contract/analytics-store.test.ts): global row first with every visit; per-link counters
 * with the mean merged as core/welford.ts `mergeIntoMean` does; visits (with their ranges) and
 * roll-ups only for links whose row still exists; values past a link day's cap folded into one
 * (core/breakdown-folding.ts, ADR 0021). The caller runs it inside a transaction (a savepoint of
 * the writer's group), so the batch is written whole or not at all.
 */
const SQL = {
  global: `update global_stats set
      total_redirects = total_redirects + @count,
      avg_latency_ms = avg_latency_ms + (cast(@latencySum as real) - @count * avg_latency_ms) / (total_redirects + @count),
      human_redirects = human_redirects + @human, bot_redirects = bot_redirects + @bot, preview_redirects = preview_redirects + @preview
    where id = 1`,
  link: `update links set
      redirect_count = redirect_count + @count,
      avg_redirect_ms = avg_redirect_ms + (cast(@latencySum as real) - @count * avg_redirect_ms) / (redirect_count + @count),
      human_count = human_count + @human, bot_count = bot_count + @bot, preview_count = preview_count + @preview
    where id = @id`,
};

/** A multi-row INSERT: `head`, then `values (?, …), …` for the rows, then `tail`. */
interface RowsStatement {
  readonly head: string;
  readonly columns: number;
  readonly tail: string;
}

const ROWS = {
  visit: { head: 'insert into visits (link_id, visited_at, facts_id, latency_ms)', columns: 4, tail: '' },
  range: { head: 'insert into visit_ranges (link_id, first_id, last_id)', columns: 3, tail: '' },
  hourly: {
    head: 'insert into link_clicks_hourly (link_id, hour_start, visitor_class, clicks)', columns: 4,
    tail: 'on conflict (link_id, hour_start, visitor_class) do update set clicks = clicks + excluded.clicks',
  },
  daily: {
    head: 'insert into link_breakdown_daily (link_id, day_start, dimension, value, visitor_class, clicks)', columns: 6,
    tail: 'on conflict (link_id, day_start, dimension, value, visitor_class) do update set clicks = clicks + excluded.clicks',
  },
} satisfies Record<string, RowsStatement>;

/**
 * Rows per statement: one call into SQLite per 50 rows instead of per row took about a quarter
 * off the upserts' cost on the writer thread; each row count up to 50 is prepared once.
 */
const ROWS_PER_STATEMENT = 50;

class Statements {
  readonly global: SQLite.Statement;
  readonly link: SQLite.Statement;
  private readonly byRows = new Map<string, SQLite.Statement>();
  private readonly values = new Map<RowsStatement, unknown[]>();

  constructor(private readonly db: SQLite.Database) {
    this.global = db.prepare(SQL.global);
    this.link = db.prepare(SQL.link);
  }

  /**
   * Inserts `rows` rows whose values `fill` sets, row after row from `at`, `ROWS_PER_STATEMENT`
   * per statement, and answers each row's id: the rows of one statement get consecutive ids (an
   * AUTOINCREMENT key, and this thread the only writer), the last of them its lastInsertRowid.
   * A full statement's values go in one array per table, used again: numbers only stay unboxed in
   * it, so the visit rows allocate nothing on the heap.
   */
  insertRows(target: RowsStatement, rows: number, fill: (row: number, values: unknown[], at: number) => void): Float64Array {
    const ids = new Float64Array(rows);
    let full = this.values.get(target);
    if (full === undefined) this.values.set(target, (full = new Array<unknown>(ROWS_PER_STATEMENT * target.columns).fill(0)));
    for (let first = 0; first < rows; first += ROWS_PER_STATEMENT) {
      const count = Math.min(ROWS_PER_STATEMENT, rows - first);
      const values = count === ROWS_PER_STATEMENT ? full : new Array<unknown>(count * target.columns);
      for (let row = first, at = 0; row < first + count; row++, at += target.columns) fill(row, values, at);
      const last = Number(this.rowsStatement(target, count).run(values).lastInsertRowid);
      for (let k = 0; k < count; k++) ids[first + k] = last - count + 1 + k;
    }
    return ids;
  }

  private rowsStatement(target: RowsStatement, count: number): SQLite.Statement {
    const key = `${target.head} ${count}`;
    let statement = this.byRows.get(key);
    if (statement === undefined) {
      const row = `(${Array(target.columns).fill('?').join(', ')})`;
      statement = this.db.prepare(`${target.head} values ${Array(count).fill(row).join(', ')} ${target.tail}`);
      this.byRows.set(key, statement);
    }
    return statement;
  }
}

const prepared = new WeakMap<SQLite.Database, Statements>();

function statementsOf(db: SQLite.Database): Statements {
  let statements = prepared.get(db);
  if (statements === undefined) prepared.set(db, (statements = new Statements(db)));
  return statements;
}

export function recordAnalyticsOnWriter(db: SQLite.Database, batch: AnalyticsBatch): void {
  if (batch.size === 0) return;
  const s = statementsOf(db);
  const { total, perLink, hourly, daily } = rollUp(batch);
  s.global.run(total);
  const existing = new Set<number>();
  for (const [id, t] of perLink) {
    if (s.link.run({ ...t, id }).changes > 0) existing.add(id);
  }
  const kept = daily.filter((row) => existing.has(row.linkId));
  // The cap needs each link day's stored values: remembered, or one read per link day, never per visit.
  const written = foldedBatch(batch, kept, storedDayValuesOnWriter(db, linkDaysOf(kept)));
  const days = written === batch ? kept : rollUp(written).daily.filter((row) => existing.has(row.linkId));
  const { order, linkIds, starts } = visitsByLink(written, existing);
  const factsIds = order.length === 0 ? [] : visitFactsIdsOnWriter(db, written.facts, lastUsedOf(written, order));
  const ids = s.insertRows(ROWS.visit, order.length, (row, values, at) => {
    const i = order[row]!;
    values[at] = batch.linkIds[i];
    values[at + 1] = batch.visitedAt[i];
    values[at + 2] = factsIds[written.factsIndex[i]!];
    values[at + 3] = batch.latencyMs[i];
  });
  // Each link's rows were inserted one after the other: its range is from its first id to its last.
  s.insertRows(ROWS.range, linkIds.length, (k, values, at) => {
    values[at] = linkIds[k];
    values[at + 1] = ids[starts[k]!];
    values[at + 2] = ids[starts[k + 1]! - 1];
  });
  const hours = hourly.filter((row) => existing.has(row.linkId));
  s.insertRows(ROWS.hourly, hours.length, (row, values, at) => {
    const { linkId, hourStart, visitorClass, clicks } = hours[row]!;
    values[at] = linkId;
    values[at + 1] = hourStart;
    values[at + 2] = visitorClass;
    values[at + 3] = clicks;
  });
  s.insertRows(ROWS.daily, days.length, (row, values, at) => {
    const { linkId, dayStart, dimension, value, visitorClass, clicks } = days[row]!;
    values[at] = linkId;
    values[at + 1] = dayStart;
    values[at + 2] = dimension;
    values[at + 3] = value;
    values[at + 4] = visitorClass;
    values[at + 5] = clicks;
  });
  rememberWrittenValues(db, days);
}
