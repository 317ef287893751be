import { sql, type Migration } from 'kysely';
import type { MigrationDb } from './schema-builders.js';

/**
 * Analytics (ADR 0013, ADR 0014): per-link counters by visitor class beside redirect_count, the
 * class on each visit row, roll-ups the read side sums instead of counting raw visits (clicks per
 * hour; breakdowns per day), and the global split. Visits get an index on time alone for the
 * retention sweep.
 */
export const analytics: Migration = {
  async up(db: MigrationDb) {
    for (const column of ['human_count', 'bot_count', 'preview_count']) {
      await db.schema.alterTable('links').addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('links_archive').addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('global_stats').addColumn(column.replace('_count', '_redirects'), 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    }
    await db.schema.alterTable('visits').addColumn('visitor_class', 'text', (c) => c.notNull().defaultTo('human')).execute();
    await db.schema.alterTable('visits').addColumn('latency_ms', 'double precision', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.createIndex('visits_visited_at_idx').on('visits').column('visited_at').execute();

    await db.schema.createTable('link_clicks_hourly')
      .addColumn('link_id', 'bigint', (c) => c.notNull())
      .addColumn('hour_start', 'bigint', (c) => c.notNull())
      .addColumn('visitor_class', 'text', (c) => c.notNull())
      .addColumn('clicks', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('link_clicks_hourly_pkey', ['link_id', 'hour_start', 'visitor_class'])
      .execute();

    await db.schema.createTable('link_breakdown_daily')
      .addColumn('link_id', 'bigint', (c) => c.notNull())
      .addColumn('day_start', 'bigint', (c) => c.notNull())
      .addColumn('dimension', 'text', (c) => c.notNull().check(sql`dimension in ('referrer', 'browser', 'os', 'device')`))
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('visitor_class', 'text', (c) => c.notNull())
      .addColumn('clicks', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('link_breakdown_daily_pkey', ['link_id', 'day_start', 'dimension', 'value', 'visitor_class'])
      .execute();
  },
};
