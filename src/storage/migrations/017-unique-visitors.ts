import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import type { MigrationDb } from './schema-builders.js';

/**
 * Unique visitors (docs/adr/0028-unique-visitors.md): the salt of each UTC day's visitor ids
 * (deleted once its day is over), the ids seen on each link's day (kept two days at most: keyed by
 * the day first, so forgetting a day is one contiguous delete), and the new visitors of each hour
 * beside its clicks. On SQLite the ids are a WITHOUT ROWID table: the key is the whole row.
 */
export const uniqueVisitors = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema.createTable('visitor_salts')
      .addColumn('day_start', 'bigint', (c) => c.primaryKey())
      .addColumn('salt', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createTable('link_visitors')
      .addColumn('day_start', 'bigint', (c) => c.notNull())
      .addColumn('link_id', 'bigint', (c) => c.notNull())
      .addColumn('visitor_id', 'bigint', (c) => c.notNull())
      .addColumn('hour_start', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('link_visitors_pkey', ['day_start', 'link_id', 'visitor_id'])
      .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
      .execute();
    await db.schema.alterTable('link_clicks_hourly').addColumn('unique_visitors', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  },
});
