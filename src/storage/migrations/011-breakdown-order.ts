import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import type { MigrationDb } from './schema-builders.js';

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
    await db.schema.createTable('link_breakdown_daily_by_dimension')
      .addColumn('link_id', 'bigint', (c) => c.notNull())
      .addColumn('day_start', 'bigint', (c) => c.notNull())
      .addColumn('dimension', 'text', (c) => c.notNull().check(sql`dimension in ('referrer', 'browser', 'os', 'device')`))
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('visitor_class', 'text', (c) => c.notNull())
      .addColumn('clicks', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('link_breakdown_daily_pkey', [...KEY])
      .modifyEnd(sql`without rowid`)
      .execute();
    await sql`insert into link_breakdown_daily_by_dimension (link_id, day_start, dimension, value, visitor_class, clicks)
      select link_id, day_start, dimension, value, visitor_class, clicks from link_breakdown_daily`.execute(db);
    await db.schema.dropTable('link_breakdown_daily').execute();
    await db.schema.alterTable('link_breakdown_daily_by_dimension').renameTo('link_breakdown_daily').execute();
    // The old table's indexes went with it: retention's index on the day (migration 010) comes back.
    await db.schema.createIndex('link_breakdown_daily_day_idx').ifNotExists().on('link_breakdown_daily').column('day_start').execute();
  },
});
