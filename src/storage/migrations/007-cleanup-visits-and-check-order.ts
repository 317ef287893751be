import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import type { MigrationDb } from './schema-builders.js';

/**
 * `cleanup_runs.visits_deleted`: the reaper's retention of raw visits (ADR 0014) had no column.
 * The health check picks active links whose last check is oldest first (never checked first): an
 * index in that order, so a pick reads a few index entries instead of sorting every active link.
 * SQLite puts NULLs first in ascending order already; PostgreSQL is told to. Retention deletes
 * visits by id now (reaper-store.ts, ADR 0016), so the index on visits.visited_at goes: each visit
 * row wrote it on the flush's hot loop.
 */
export const cleanupVisitsAndCheckOrder = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema.alterTable('cleanup_runs').addColumn('visits_deleted', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    const order = dialect === 'postgres' ? sql`status, last_checked_at nulls first, id` : sql`status, last_checked_at, id`;
    await db.schema.createIndex('links_health_check_idx').on('links').expression(order).execute();
    await db.schema.dropIndex('visits_visited_at_idx').execute();
  },
});
