import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { allowBreakdownDimensions, rekeyVisitFacts, type MigrationDb } from './schema-builders.js';

/**
 * The country of a visit (ISO 3166-1 alpha-2, looked up from its address by the flusher, which
 * then forgets the address: no address is stored): one more fact in `visit_facts`, part of its
 * unique key, and one more dimension of the daily breakdown. SQLite cannot change a CHECK in place,
 * so the breakdown table is copied into one that allows the new dimension, as migration 011 did.
 */
export const visitCountry = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema.alterTable('visit_facts').addColumn('country', 'text').execute();
    await rekeyVisitFacts(db, ['referrer_host', 'browser', 'os', 'device', 'country']);
    await allowBreakdownDimensions(db, dialect, sql`dimension in ('referrer', 'browser', 'os', 'device', 'country')`);
  },
});
