import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { rebuildBreakdownDaily, type MigrationDb } from './schema-builders.js';

const DIMENSIONS = sql`dimension in ('referrer', 'browser', 'os', 'device', 'country')`;

/**
 * The country of a visit (ISO 3166-1 alpha-2, looked up from its address by the flusher, which
 * then forgets the address: no address is stored): one more fact in `visit_facts`, part of its
 * unique key, and one more dimension of the daily breakdown. SQLite cannot change a CHECK in place,
 * so the breakdown table is copied into one that allows the new dimension, as migration 011 did.
 */
export const visitCountry = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema.alterTable('visit_facts').addColumn('country', 'text').execute();
    await db.schema.dropIndex('visit_facts_key').execute();
    const key = sql.join([sql.ref('visitor_class'), ...['referrer_host', 'browser', 'os', 'device', 'country'].map((column) => sql`(coalesce(${sql.ref(column)}, ''))`)]);
    await db.schema.createIndex('visit_facts_key').on('visit_facts').unique().expression(key).execute();
    if (dialect === 'postgres') {
      await sql`alter table link_breakdown_daily drop constraint if exists link_breakdown_daily_dimension_check`.execute(db);
      await sql`alter table link_breakdown_daily add constraint link_breakdown_daily_dimension_check check (${DIMENSIONS})`.execute(db);
      return;
    }
    await rebuildBreakdownDaily(db, DIMENSIONS);
  },
});
