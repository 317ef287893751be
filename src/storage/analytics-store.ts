import { CompiledQuery, sql, type Kysely, type QueryResult, type Transaction } from 'kysely';
import type { AnalyticsBatch, AnalyticsStore } from '../core/analytics-ports.js';
import { visitsByLink } from '../core/analytics-batch.js';
import { rollUp, type VisitTotals } from '../core/analytics-rollups.js';
import { foldedBatch, linkDaysOf } from '../core/breakdown-folding.js';
import { storedDayValues } from './breakdown-values.js';
import type { OpenDatabase } from './database.js';
import type { Database } from './schema.js';
import type { SqliteWriter } from './sqlite-writer.js';
import { guarded } from './store-errors.js';
import { lastUsedOf, visitFactsIds } from './visit-facts.js';
import { visitRangesOf } from './visit-ranges.js';

/** The flush's store for the open database: the writer thread's task on SQLite, SQL from this thread on PostgreSQL. */
export function analyticsStoreFor(database: OpenDatabase): AnalyticsStore {
  return database.embedded ? new SqliteAnalyticsStore(database.embedded.writer) : new KyselyAnalyticsStore(database.db);
}

/**
 * On SQLite the whole batch goes to the writer thread in one message and is rolled up and written
 * there (storage/analytics-writer-task.ts, ADR 0016): the thread that answers redirects only
 * classifies and copies a few typed arrays.
 */
export class SqliteAnalyticsStore implements AnalyticsStore {
  constructor(private readonly writer: SqliteWriter) {}

  recordBatch(batch: AnalyticsBatch): Promise<void> {
    if (batch.size === 0) return Promise.resolve();
    return guarded(() => this.writer.task('recordAnalytics', batch));
  }
}

// Rows per statement: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters.
const ROWS_PER_STATEMENT = 1_000;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) result.push(items.slice(i, i + ROWS_PER_STATEMENT));
  return result;
}

/**
 * The flusher's write side on PostgreSQL (plain SQL that SQLite runs too; the app's SQLite flush is
 * the writer thread's task above, which writes the same rows the same way). Means are merged in SQL as
 * core/welford.ts `mergeIntoMean` does: μ ← μ + (Σx − n·μ)/(count + n), with every right-hand side
 * reading the row as it was before the UPDATE (both databases evaluate SET that way).
 *
 * The global row is updated first and with every visit, also those of links gone meanwhile (the
 * redirects did happen). On PostgreSQL its row lock also makes concurrent flushes of several
 * instances wait for each other, so their link updates cannot deadlock. Per-link counters, visit
 * rows and roll-ups go only to links whose row still exists: a link purged since its redirect is
 * skipped. A soft-deleted link still has its row and keeps the clicks it had while live.
 *
 * Values past a link day's cap fold into one (core/breakdown-folding.ts, ADR 0021). The stored
 * values are read after the global row's UPDATE: an instance's flush that committed first is
 * read whole, so two instances flushing at once do not both take the last places under the cap.
 */
export class KyselyAnalyticsStore implements AnalyticsStore {
  /** Each multi-row INSERT compiled once per table and row count: building them per flush cost more than the rows. */
  private readonly compiled = new Map<string, string>();

  constructor(private readonly db: Kysely<Database>) {}

  /** `compile` builds the statement for `rows` rows; `parameters` are theirs, row after row in its column order. */
  private insertRows<R = unknown>(trx: Transaction<Database>, table: string, rows: number, compile: (rows: number) => string, parameters: unknown[]): Promise<QueryResult<R>> {
    const key = `${table} ${rows}`;
    let text = this.compiled.get(key);
    if (text === undefined) {
      text = compile(rows);
      if (this.compiled.size >= 192) this.compiled.clear(); // the last chunk of each table varies in size
      this.compiled.set(key, text);
    }
    return trx.executeQuery<R>(CompiledQuery.raw(text, parameters));
  }

  private readonly visitsSql = (rows: number) => {
    const row = { link_id: 0, visited_at: 0, facts_id: 0, latency_ms: 0 };
    return this.db.insertInto('visits').values(Array(rows).fill(row)).returning(['id', 'link_id']).compile().sql;
  };

  private readonly rangesSql = (rows: number) => {
    const row = { link_id: 0, first_id: 0, last_id: 0 };
    return this.db.insertInto('visit_ranges').values(Array(rows).fill(row)).compile().sql;
  };

  private readonly hourlySql = (rows: number) => {
    const row = { link_id: 0, hour_start: 0, visitor_class: 'human', clicks: 0 } as const;
    return this.db.insertInto('link_clicks_hourly').values(Array(rows).fill(row))
      .onConflict((oc) => oc.columns(['link_id', 'hour_start', 'visitor_class']).doUpdateSet({ clicks: sql`link_clicks_hourly.clicks + excluded.clicks` }))
      .compile().sql;
  };

  private readonly dailySql = (rows: number) => {
    const row = { link_id: 0, day_start: 0, dimension: 'referrer', value: '', visitor_class: 'human', clicks: 0 } as const;
    return this.db.insertInto('link_breakdown_daily').values(Array(rows).fill(row))
      .onConflict((oc) => oc.columns(['link_id', 'day_start', 'dimension', 'value', 'visitor_class'])
        .doUpdateSet({ clicks: sql`link_breakdown_daily.clicks + excluded.clicks` }))
      .compile().sql;
  };

  recordBatch(batch: AnalyticsBatch): Promise<void> {
    if (batch.size === 0) return Promise.resolve();
    const rollups = rollUp(batch);
    return guarded(() => this.db.transaction().execute(async (trx) => {
      await updateGlobal(trx, rollups.total);
      const existing = new Set<number>();
      for (const part of chunks([...rollups.perLink])) {
        for (const id of await updateLinks(trx, part)) existing.add(id);
      }
      const kept = <T extends { linkId: number }>(rows: readonly T[]) => rows.filter((row) => existing.has(row.linkId));
      const daily = kept(rollups.daily);
      const written = foldedBatch(batch, daily, await storedDayValues(trx, linkDaysOf(daily)));
      const ids: number[] = [];
      const linkIds: number[] = [];
      const { order } = visitsByLink(written, existing);
      const factsIds = order.length === 0 ? [] : await visitFactsIds(trx, written.facts, lastUsedOf(written, order));
      for (const part of chunks(Array.from(order))) {
        const parameters: unknown[] = [];
        for (const i of part) parameters.push(written.linkIds[i], written.visitedAt[i], factsIds[written.factsIndex[i]!], written.latencyMs[i]);
        const { rows } = await this.insertRows<{ id: number; link_id: number }>(trx, 'visits', part.length, this.visitsSql, parameters);
        for (const row of rows) {
          ids.push(Number(row.id));
          linkIds.push(Number(row.link_id));
        }
      }
      for (const part of chunks(visitRangesOf(ids, linkIds))) {
        const parameters = part.flatMap((range) => [range.link_id, range.first_id, range.last_id]);
        await this.insertRows(trx, 'ranges', part.length, this.rangesSql, parameters);
      }
      for (const part of chunks(kept(rollups.hourly))) {
        const parameters: unknown[] = [];
        for (const row of part) parameters.push(row.linkId, row.hourStart, row.visitorClass, row.clicks);
        await this.insertRows(trx, 'hourly', part.length, this.hourlySql, parameters);
      }
      for (const part of chunks(written === batch ? daily : kept(rollUp(written).daily))) {
        const parameters: unknown[] = [];
        for (const row of part) parameters.push(row.linkId, row.dayStart, row.dimension, row.value, row.visitorClass, row.clicks);
        await this.insertRows(trx, 'daily', part.length, this.dailySql, parameters);
      }
    }));
  }
}

async function updateGlobal(trx: Transaction<Database>, total: VisitTotals): Promise<void> {
  await trx.updateTable('global_stats')
    .set({
      total_redirects: sql`total_redirects + ${total.count}`,
      avg_latency_ms: sql`avg_latency_ms + (cast(${total.latencySum} as double precision) - ${total.count} * avg_latency_ms) / (total_redirects + ${total.count})`,
      human_redirects: sql`human_redirects + ${total.human}`,
      bot_redirects: sql`bot_redirects + ${total.bot}`,
      preview_redirects: sql`preview_redirects + ${total.preview}`,
    })
    .where('id', '=', 1)
    .execute();
}

/**
 * One UPDATE … FROM (VALUES …) for many links, each with its own increments; answers the ids it
 * found. VALUES columns are column1, column2, … on both databases; the casts give PostgreSQL the
 * types it cannot infer from bare parameters.
 */
async function updateLinks(trx: Transaction<Database>, links: readonly [number, VisitTotals][]): Promise<number[]> {
  const values = links.map(([id, t]) => sql`(cast(${id} as bigint), cast(${t.count} as bigint), cast(${t.latencySum} as double precision), cast(${t.human} as bigint), cast(${t.bot} as bigint), cast(${t.preview} as bigint))`);
  const { rows } = await sql<{ id: number }>`
    update links set
      redirect_count = links.redirect_count + v.column2,
      avg_redirect_ms = links.avg_redirect_ms + (v.column3 - v.column2 * links.avg_redirect_ms) / (links.redirect_count + v.column2),
      human_count = links.human_count + v.column4,
      bot_count = links.bot_count + v.column5,
      preview_count = links.preview_count + v.column6
    from (values ${sql.join(values)}) as v
    where links.id = v.column1
    returning links.id`.execute(trx);
  return rows.map((row) => Number(row.id));
}
