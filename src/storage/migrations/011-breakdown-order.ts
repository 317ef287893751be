import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { rebuildBreakdownDaily, type MigrationDb } from './schema-builders.js';

const KEY = ['link_id', 'dimension', 'day_start', 'value', 'visitor_class'] as const;

/**
 * The daily breakdown keyed by (link, dimension, day, value, class), so a link's top values of one
 * dimension over a range of days are one contiguous stretch of the key (ADR 0014, "Top values in
 * SQL"). SQLite keeps the rows in that key itself (WITHOUT ROWID): the read is one sequential pass
 * on the main thread's connection, with no lookup of `clicks` elsewhere, and a write updates one
 * B-tree instead of a table and its key. PostgreSQL compares values bytewise ("C"), as SQLite
 * does, so both break ties in the same order; `clicks` stays out of its key, so the flush's
 * `clicks = clicks + …` remains a HOT update.
 */
export const breakdownOrder = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    if (dialect === 'postgres') {
      await sql`alter table link_breakdown_daily drop constraint link_breakdown_daily_pkey`.execute(db);
      await sql`alter table link_breakdown_daily alter column value type text collate "C"`.execute(db);
      await db.schema.alterTable('link_breakdown_daily').addPrimaryKeyConstraint('link_breakdown_daily_pkey', [...KEY]).execute();
      return;
    }
    await rebuildBreakdownDaily(db, sql`dimension in ('referrer', 'browser', 'os', 'device')`);
  },
});
