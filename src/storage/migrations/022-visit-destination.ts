import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { allowBreakdownDimensions, rekeyVisitFacts, type MigrationDb } from './schema-builders.js';

/**
 * Which route or variant of a link served a visit (ADR 0031): one more fact in `visit_facts`
 * (`route:0`, `variant:1`; NULL when the link's own URL was), part of its unique key, and one more
 * dimension of the daily breakdown (`destination`). As in migration 016, SQLite's breakdown table
 * is copied into one whose CHECK allows the new dimension.
 */
export const visitDestination = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema.alterTable('visit_facts').addColumn('destination', 'text').execute();
    await rekeyVisitFacts(db, ['referrer_host', 'browser', 'os', 'device', 'country', 'region', 'city', 'destination']);
    await allowBreakdownDimensions(db, dialect, sql`dimension in ('referrer', 'browser', 'os', 'device', 'country', 'city', 'destination')`);
  },
});
