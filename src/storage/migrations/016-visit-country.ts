import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import type { MigrationDb } from './schema-builders.js';

const KEY = ['link_id', 'dimension', 'day_start', 'value', 'visitor_class'] as const;
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
    await db.schema.createTable('link_breakdown_daily_with_country')
      .addColumn('link_id', 'bigint', (c) => c.notNull())
      .addColumn('day_start', 'bigint', (c) => c.notNull())
      .addColumn('dimension', 'text', (c) => c.notNull().check(DIMENSIONS))
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('visitor_class', 'text', (c) => c.notNull())
      .addColumn('clicks', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('link_breakdown_daily_pkey', [...KEY])
      .modifyEnd(sql`without rowid`)
      .execute();
    await sql`insert into link_breakdown_daily_with_country (link_id, day_start, dimension, value, visitor_class, clicks)
      select link_id, day_start, dimension, value, visitor_class, clicks from link_breakdown_daily`.execute(db);
    await db.schema.dropTable('link_breakdown_daily').execute();
    await db.schema.alterTable('link_breakdown_daily_with_country').renameTo('link_breakdown_daily').execute();
    await db.schema.createIndex('link_breakdown_daily_day_idx').ifNotExists().on('link_breakdown_daily').column('day_start').execute();
  },
});
