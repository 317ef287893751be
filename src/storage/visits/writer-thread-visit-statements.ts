import type SQLite from 'better-sqlite3';
import type {
  AppendedVisits, DailyBreakdown, HourlyClicks, LinkDay, StoredDayValues, VisitBatch, VisitFacts, VisitStatements, VisitTotals,
} from '../../core/visit-ports.js';
import { READ_DAY_VALUES_ON_WRITER, rememberWrittenValues, storedDayValuesOnWriter } from './breakdown-values.js';
import { UPSERT_FACTS_ON_WRITER, visitFactsIdsOnWriter } from './visit-facts.js';
import { visitRangesOf } from './visit-ranges.js';
import { ADD_NEW_VISITORS_ON_WRITER, appendVisitorsOnWriter, INSERT_VISITOR_ON_WRITER } from './visitor-statements.js';
import type { VisitorSighting } from '../../core/visitor-ports.js';

/**
 * A batch's steps in raw SQL on the SQLite writer thread's own connection (ADR 0016): the batch
 * arrives as one message and is written with prepared statements there, so the thread that
 * answers redirects neither groups visits nor binds a parameter. The same statements as
 * kysely-visit-statements.ts, in SQLite's words; test/storage/writer-visit-sql.test.ts checks
 * every table and column named here against schema.ts and both migrated databases.
 */
const UPDATES = {
  global: `update global_stats set
      total_redirects = total_redirects + @count,
      avg_latency_ms = avg_latency_ms + (cast(@latencySum as real) - @count * avg_latency_ms) / (total_redirects + @count),
      human_redirects = human_redirects + @human, bot_redirects = bot_redirects + @bot, preview_redirects = preview_redirects + @preview
    where id = 1`,
};

/**
 * The counters of `count` links in one statement, each link's values a row of the VALUES list
 * (SQLite names its columns column1…column6): id, count, latencySum, human, bot, preview. A flush
 * of visits spread over many links made one UPDATE per link, and the call per statement was a
 * tenth of the writer's work per visit (docs/adr/0022, "Counters fifty links at a time").
 */
const linksSql = (count: number) => `update links set
    redirect_count = redirect_count + column2,
    avg_redirect_ms = avg_redirect_ms + (cast(column3 as real) - column2 * avg_redirect_ms) / (redirect_count + column2),
    human_count = human_count + column4, bot_count = bot_count + column5, preview_count = preview_count + column6
  from (values ${Array(count).fill('(?, ?, ?, ?, ?, ?)').join(', ')})
  where links.id = column1
  returning id, redirect_count`;

/** A multi-row INSERT: `head`, then `values (?, …), …` for the rows, then `tail`. */
interface RowsStatement {
  readonly head: string;
  readonly columns: number;
  readonly tail: string;
}

const APPENDS = {
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

const rowsSql = (target: RowsStatement, count: number) =>
  `${target.head} values ${Array(count).fill(`(${Array(target.columns).fill('?').join(', ')})`).join(', ')} ${target.tail}`;

/** Every raw statement the writer thread runs for visits, with one row where it takes many (for the schema test). */
export const WRITER_VISIT_SQL: readonly string[] = [
  ...Object.values(UPDATES), linksSql(1), ...Object.values(APPENDS).map((target) => rowsSql(target, 1)), UPSERT_FACTS_ON_WRITER, READ_DAY_VALUES_ON_WRITER,
  INSERT_VISITOR_ON_WRITER, ADD_NEW_VISITORS_ON_WRITER,
];

/**
 * Rows per statement: one call into SQLite per 50 rows instead of per row took about a quarter
 * off the upserts' cost on the writer thread; each row count up to 50 is prepared once.
 */
const ROWS_PER_STATEMENT = 50;

export class WriterThreadVisitStatements implements VisitStatements {
  private readonly global: SQLite.Statement;
  private readonly byRows = new Map<string, SQLite.Statement>();
  private readonly values = new Map<RowsStatement, unknown[]>();

  constructor(private readonly db: SQLite.Database) {
    this.global = db.prepare(UPDATES.global);
  }

  async addToGlobal(total: VisitTotals): Promise<void> {
    this.global.run(total);
  }

  /** Each existing link's count after the batch, `ROWS_PER_STATEMENT` links a statement; a purged link answers nothing. */
  async addToLinks(perLink: ReadonlyMap<number, VisitTotals>): Promise<ReadonlyMap<number, number>> {
    const existing = new Map<number, number>();
    const links = [...perLink];
    for (let first = 0; first < links.length; first += ROWS_PER_STATEMENT) {
      const count = Math.min(ROWS_PER_STATEMENT, links.length - first);
      const values: number[] = [];
      for (const [id, totals] of links.slice(first, first + count)) values.push(id, totals.count, totals.latencySum, totals.human, totals.bot, totals.preview);
      for (const [id, clicks] of this.linksStatement(count).all(values) as [number, number][]) existing.set(id, clicks);
    }
    return existing;
  }

  /** Remembered, or one read per link day, never per visit (breakdown-values.ts). */
  async storedDayValues(linkDays: readonly LinkDay[]): Promise<ReadonlyMap<string, StoredDayValues>> {
    return storedDayValuesOnWriter(this.db, linkDays);
  }

  async factsIds(facts: readonly VisitFacts[], lastUsed: ArrayLike<number>): Promise<ArrayLike<number>> {
    return visitFactsIdsOnWriter(this.db, facts, lastUsed);
  }

  async appendVisits(batch: VisitBatch, order: ArrayLike<number>, factsIds: ArrayLike<number>): Promise<AppendedVisits> {
    const linkIds = new Float64Array(order.length);
    const ids = this.insertRows(APPENDS.visit, order.length, (row, values, at) => {
      const i = order[row]!;
      linkIds[row] = values[at] = batch.linkIds[i]!;
      values[at + 1] = batch.visitedAt[i];
      values[at + 2] = factsIds[batch.factsIndex[i]!];
      values[at + 3] = batch.latencyMs[i];
    });
    return { ids, linkIds };
  }

  async appendRanges({ ids, linkIds }: AppendedVisits): Promise<void> {
    const ranges = visitRangesOf(ids, linkIds);
    this.insertRows(APPENDS.range, ranges.length, (k, values, at) => {
      const range = ranges[k]!;
      values[at] = range.link_id;
      values[at + 1] = range.first_id;
      values[at + 2] = range.last_id;
    });
  }

  async appendHourly(rows: readonly HourlyClicks[]): Promise<void> {
    this.insertRows(APPENDS.hourly, rows.length, (k, values, at) => {
      const { linkId, hourStart, visitorClass, clicks } = rows[k]!;
      values[at] = linkId;
      values[at + 1] = hourStart;
      values[at + 2] = visitorClass;
      values[at + 3] = clicks;
    });
  }

  /** The remembered link days learn the values written (breakdown-values.ts). */
  async appendDaily(rows: readonly DailyBreakdown[]): Promise<void> {
    this.insertRows(APPENDS.daily, rows.length, (k, values, at) => {
      const { linkId, dayStart, dimension, value, visitorClass, clicks } = rows[k]!;
      values[at] = linkId;
      values[at + 1] = dayStart;
      values[at + 2] = dimension;
      values[at + 3] = value;
      values[at + 4] = visitorClass;
      values[at + 5] = clicks;
    });
    rememberWrittenValues(this.db, rows);
  }

  async appendVisitors(rows: readonly VisitorSighting[]): Promise<void> {
    appendVisitorsOnWriter(this.db, rows);
  }

  /**
   * Inserts `rows` rows whose values `fill` sets, row after row from `at`, `ROWS_PER_STATEMENT`
   * per statement, and answers each row's id: the rows of one statement get consecutive ids (an
   * AUTOINCREMENT key, and this thread the only writer), the last of them its lastInsertRowid.
   * A full statement's values go in one array per table, used again: numbers only stay unboxed in
   * it, so the visit rows allocate nothing on the heap.
   */
  private insertRows(target: RowsStatement, rows: number, fill: (row: number, values: unknown[], at: number) => void): Float64Array {
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

  private linksStatement(count: number): SQLite.Statement {
    return this.preparedOnce(`links ${count}`, () => this.db.prepare(linksSql(count)).raw());
  }

  private rowsStatement(target: RowsStatement, count: number): SQLite.Statement {
    return this.preparedOnce(`${target.head} ${count}`, () => this.db.prepare(rowsSql(target, count)));
  }

  private preparedOnce(key: string, prepare: () => SQLite.Statement): SQLite.Statement {
    let statement = this.byRows.get(key);
    if (statement === undefined) this.byRows.set(key, (statement = prepare()));
    return statement;
  }
}

const prepared = new WeakMap<SQLite.Database, WriterThreadVisitStatements>();

/** The writer connection's statements, prepared once. */
export function writerThreadVisitStatements(db: SQLite.Database): WriterThreadVisitStatements {
  let statements = prepared.get(db);
  if (statements === undefined) prepared.set(db, (statements = new WriterThreadVisitStatements(db)));
  return statements;
}
