import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { allowBreakdownDimensions, rekeyVisitFacts, type MigrationDb } from './schema-builders.js';

/**
 * The region and city of a visit (English names, from a City database given as GEOIP_DATABASE;
 * ADR 0027): two more facts in `visit_facts`, part of its unique key, and one more dimension of
 * the daily breakdown (`city`, valued country, region and city together). As in migration 015,
 * SQLite's breakdown table is copied into one whose CHECK allows the new dimension.
 */
export const visitCity = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema.alterTable('visit_facts').addColumn('region', 'text').execute();
    await db.schema.alterTable('visit_facts').addColumn('city', 'text').execute();
    await rekeyVisitFacts(db, ['referrer_host', 'browser', 'os', 'device', 'country', 'region', 'city']);
    await allowBreakdownDimensions(db, dialect, sql`dimension in ('referrer', 'browser', 'os', 'device', 'country', 'city')`);
  },
});
