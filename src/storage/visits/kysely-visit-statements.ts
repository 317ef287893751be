import { CompiledQuery, sql, type Kysely, type QueryResult } from 'kysely';
import type {
  AppendedVisits, DailyBreakdown, HourlyClicks, LinkDay, StoredDayValues, VisitBatch, VisitFacts, VisitStatements, VisitTotals,
} from '../../core/visit-ports.js';
import type { Database } from '../schema.js';
import { storedDayValues } from './breakdown-values.js';
import { visitFactsIds } from './visit-facts.js';
import { visitRangesOf } from './visit-ranges.js';
import { appendVisitorsWithKysely } from './visitor-statements.js';
import type { VisitorSighting } from '../../core/visitor-ports.js';

// Rows per statement: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters.
const ROWS_PER_STATEMENT = 1_000;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) result.push(items.slice(i, i + ROWS_PER_STATEMENT));
  return result;
}

type AppendedTable = 'visits' | 'visit_ranges' | 'link_clicks_hourly' | 'link_breakdown_daily';

/**
 * Each multi-row INSERT compiled once per table and row count, in the dialect of the database it
 * was built for: building them per flush cost more than the rows. One per writer, not per process
 * (a test process holds both databases).
 */
export class CompiledAppends {
  private readonly texts = new Map<string, string>();

  constructor(private readonly db: Kysely<Database>) {}

  text(table: AppendedTable, rows: number): string {
    const key = `${table} ${rows}`;
    let text = this.texts.get(key);
    if (text === undefined) {
      text = this.compile(table, rows);
      if (this.texts.size >= 192) this.texts.clear(); // the last chunk of each table varies in size
      this.texts.set(key, text);
    }
    return text;
  }

  private compile(table: AppendedTable, rows: number): string {
    const db = this.db;
    switch (table) {
      case 'visits':
        return db.insertInto('visits').values(Array(rows).fill({ link_id: 0, visited_at: 0, facts_id: 0, latency_ms: 0 }))
          .returning(['id', 'link_id']).compile().sql;
      case 'visit_ranges':
        return db.insertInto('visit_ranges').values(Array(rows).fill({ link_id: 0, first_id: 0, last_id: 0 })).compile().sql;
      case 'link_clicks_hourly':
        return db.insertInto('link_clicks_hourly').values(Array(rows).fill({ link_id: 0, hour_start: 0, visitor_class: 'human', clicks: 0 }))
          .onConflict((oc) => oc.columns(['link_id', 'hour_start', 'visitor_class']).doUpdateSet({ clicks: sql`link_clicks_hourly.clicks + excluded.clicks` }))
          .compile().sql;
      case 'link_breakdown_daily':
        return db.insertInto('link_breakdown_daily')
          .values(Array(rows).fill({ link_id: 0, day_start: 0, dimension: 'referrer', value: '', visitor_class: 'human', clicks: 0 }))
          .onConflict((oc) => oc.columns(['link_id', 'day_start', 'dimension', 'value', 'visitor_class'])
            .doUpdateSet({ clicks: sql`link_breakdown_daily.clicks + excluded.clicks` }))
          .compile().sql;
    }
  }
}

/**
 * A batch's steps through Kysely, inside the caller's transaction: the PostgreSQL flush, and an
 * import on either database. Plain SQL that SQLite runs too. Means merge in SQL as core/welford.ts
 * `mergeIntoMean` does: μ ← μ + (Σx − n·μ)/(count + n), every right-hand side reading the row as
 * it was before the UPDATE (both databases evaluate SET that way).
 */
export class KyselyVisitStatements implements VisitStatements {
  constructor(private readonly trx: Kysely<Database>, private readonly appends: CompiledAppends) {}

  async addToGlobal(total: VisitTotals): Promise<void> {
    await this.trx.updateTable('global_stats')
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
   * One UPDATE … FROM (VALUES …) per thousand links, each with its own increments. VALUES columns
   * are column1, column2, … on both databases; the casts give PostgreSQL the types it cannot infer
   * from bare parameters.
   */
  async addToLinks(perLink: ReadonlyMap<number, VisitTotals>): Promise<ReadonlyMap<number, number>> {
    const existing = new Map<number, number>();
    for (const part of chunks([...perLink])) {
      const values = part.map(([id, t]) => sql`(cast(${id} as bigint), cast(${t.count} as bigint), cast(${t.latencySum} as double precision), cast(${t.human} as bigint), cast(${t.bot} as bigint), cast(${t.preview} as bigint))`);
      const { rows } = await sql<{ id: number; redirect_count: number }>`
        update links set
          redirect_count = links.redirect_count + v.column2,
          avg_redirect_ms = links.avg_redirect_ms + (v.column3 - v.column2 * links.avg_redirect_ms) / (links.redirect_count + v.column2),
          human_count = links.human_count + v.column4,
          bot_count = links.bot_count + v.column5,
          preview_count = links.preview_count + v.column6
        from (values ${sql.join(values)}) as v
        where links.id = v.column1
        returning links.id, links.redirect_count`.execute(this.trx);
      for (const row of rows) existing.set(Number(row.id), Number(row.redirect_count));
    }
    return existing;
  }

  storedDayValues(linkDays: readonly LinkDay[]): Promise<ReadonlyMap<string, StoredDayValues>> {
    return storedDayValues(this.trx, linkDays);
  }

  factsIds(facts: readonly VisitFacts[], lastUsed: ArrayLike<number>): Promise<ArrayLike<number>> {
    return visitFactsIds(this.trx, facts, lastUsed);
  }

  async appendVisits(batch: VisitBatch, order: ArrayLike<number>, factsIds: ArrayLike<number>): Promise<AppendedVisits> {
    const ids: number[] = [];
    const linkIds: number[] = [];
    for (const part of chunks(Array.from(order))) {
      const parameters: unknown[] = [];
      for (const i of part) parameters.push(batch.linkIds[i], batch.visitedAt[i], factsIds[batch.factsIndex[i]!], batch.latencyMs[i]);
      const { rows } = await this.insert<{ id: number; link_id: number }>('visits', part.length, parameters);
      for (const row of rows) {
        ids.push(Number(row.id));
        linkIds.push(Number(row.link_id));
      }
    }
    return { ids, linkIds };
  }

  async appendRanges({ ids, linkIds }: AppendedVisits): Promise<void> {
    for (const part of chunks(visitRangesOf(ids, linkIds))) {
      await this.insert('visit_ranges', part.length, part.flatMap((range) => [range.link_id, range.first_id, range.last_id]));
    }
  }

  async appendHourly(rows: readonly HourlyClicks[]): Promise<void> {
    for (const part of chunks(rows)) {
      await this.insert('link_clicks_hourly', part.length, part.flatMap((row) => [row.linkId, row.hourStart, row.visitorClass, row.clicks]));
    }
  }

  async appendDaily(rows: readonly DailyBreakdown[]): Promise<void> {
    for (const part of chunks(rows)) {
      const parameters = part.flatMap((row) => [row.linkId, row.dayStart, row.dimension, row.value, row.visitorClass, row.clicks]);
      await this.insert('link_breakdown_daily', part.length, parameters);
    }
  }

  appendVisitors(rows: readonly VisitorSighting[]): Promise<void> {
    return appendVisitorsWithKysely(this.trx, rows);
  }

  /** `parameters` are the rows', row after row in the table's column order above. */
  private insert<R = unknown>(table: AppendedTable, rows: number, parameters: unknown[]): Promise<QueryResult<R>> {
    return this.trx.executeQuery<R>(CompiledQuery.raw(this.appends.text(table, rows), parameters));
  }
}
