import type { Migration } from 'kysely';
import type { MigrationDb } from './schema-builders.js';

/** The reaper's scans select by status first: without these it walks a week of retained rows. */
export const reaperIndexes: Migration = {
  async up(db: MigrationDb) {
    await db.schema.createIndex('links_status_expires_at_idx').on('links').columns(['status', 'expires_at']).execute();
    await db.schema.createIndex('links_status_deleted_at_idx').on('links').columns(['status', 'deleted_at']).execute();
  },
};
