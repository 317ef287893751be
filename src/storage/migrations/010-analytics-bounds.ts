import { sql, type Migration } from 'kysely';
import type { MigrationDb } from './schema-builders.js';

/**
 * Bounds on what hostile traffic can grow (ADR 0021). `visit_facts.last_used_at`, set by every
 * flush and import, lets the reaper delete a set no visit points at any more: existing sets get
 * the time of their latest visit, or 0 when none is left. Roll-up retention deletes by time, so
 * both roll-ups get an index on it (written when a row is added, not when its clicks grow).
 */
export const analyticsBounds: Migration = {
  async up(db: MigrationDb) {
    await db.schema.alterTable('visit_facts').addColumn('last_used_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update visit_facts set last_used_at = latest.visited_at
      from (select facts_id, max(visited_at) as visited_at from visits group by facts_id) as latest
      where latest.facts_id = visit_facts.id`.execute(db);
    await db.schema.createIndex('visit_facts_last_used_idx').on('visit_facts').column('last_used_at').execute();
    await db.schema.createIndex('link_clicks_hourly_hour_idx').on('link_clicks_hourly').column('hour_start').execute();
    await db.schema.createIndex('link_breakdown_daily_day_idx').on('link_breakdown_daily').column('day_start').execute();
  },
};
