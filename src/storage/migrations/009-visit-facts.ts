import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { withId, type MigrationDb } from './schema-builders.js';

const FACT_COLUMNS = ['referrer_host', 'browser', 'os', 'device'] as const;

/**
 * Each distinct set of a visit's facts (class, referrer host, browser, OS, device) once, in
 * `visit_facts`, and a visit row points at it: a visit row is four numbers instead of four strings
 * and a class, cheaper to insert and half the disk (measured in ADR 0016, "narrow visit rows").
 * The unique index treats an unknown value (NULL) as one value, so a set of facts is there once
 * however many of its values are unknown; an empty string, which no classifier gives, is read as
 * unknown too.
 */
export const visitFacts = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    let table = withId(db.schema.createTable('visit_facts'), dialect).addColumn('visitor_class', 'text', (c) => c.notNull());
    for (const column of FACT_COLUMNS) table = table.addColumn(column, 'text');
    await table.execute();
    const key = sql.join([sql.ref('visitor_class'), ...FACT_COLUMNS.map((column) => sql`(coalesce(${sql.ref(column)}, ''))`)]);
    await db.schema.createIndex('visit_facts_key').on('visit_facts').unique().expression(key).execute();
    await sql`insert into visit_facts (visitor_class, referrer_host, browser, os, device)
      select distinct visitor_class, nullif(referrer_host, ''), nullif(browser, ''), nullif(os, ''), nullif(device, '') from visits`.execute(db);
    await db.schema.alterTable('visits').addColumn('facts_id', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update visits set facts_id = (
      select f.id from visit_facts f where f.visitor_class = visits.visitor_class
        and coalesce(f.referrer_host, '') = coalesce(visits.referrer_host, '') and coalesce(f.browser, '') = coalesce(visits.browser, '')
        and coalesce(f.os, '') = coalesce(visits.os, '') and coalesce(f.device, '') = coalesce(visits.device, ''))`.execute(db);
    for (const column of [...FACT_COLUMNS, 'visitor_class', 'is_bot']) await db.schema.alterTable('visits').dropColumn(column).execute();
  },
});
