import type { Migration } from 'kysely';
import type { MigrationDb } from './schema-builders.js';

/**
 * A counter per user that every session token carries (ADR 0024): signing out adds one, and a
 * token whose number is not the user's current one is refused, on every instance at once.
 */
export const sessionEpoch: Migration = {
  async up(db: MigrationDb) {
    await db.schema.alterTable('users').addColumn('session_epoch', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db: MigrationDb) {
    await db.schema.alterTable('users').dropColumn('session_epoch').execute();
  },
};
