import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../database.js';

/** Migrations describe schemas that the row types do not know yet (or no longer know). */
export type MigrationDb = Kysely<any>;

/** The one dialect difference the migrations spell: how an auto-incrementing key is declared. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Times are epoch milliseconds, never null. */
export const time = (c: ColumnDefinitionBuilder) => c.notNull();

/**
 * SQLite only: `link_breakdown_daily` rebuilt as a WITHOUT ROWID table keyed by (link, dimension,
 * day, value, class) whose dimension obeys `dimensions`, its rows copied, and retention's index on
 * the day made again (migrations 011 and 015: SQLite changes neither a key nor a CHECK in place).
 */
export async function rebuildBreakdownDaily(db: MigrationDb, dimensions: RawBuilder<unknown>): Promise<void> {
  await db.schema.createTable('link_breakdown_daily_next')
    .addColumn('link_id', 'bigint', (c) => c.notNull())
    .addColumn('day_start', 'bigint', (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull().check(dimensions))
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('visitor_class', 'text', (c) => c.notNull())
    .addColumn('clicks', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_breakdown_daily_pkey', ['link_id', 'dimension', 'day_start', 'value', 'visitor_class'])
    .modifyEnd(sql`without rowid`)
    .execute();
  await sql`insert into link_breakdown_daily_next (link_id, day_start, dimension, value, visitor_class, clicks)
    select link_id, day_start, dimension, value, visitor_class, clicks from link_breakdown_daily`.execute(db);
  await db.schema.dropTable('link_breakdown_daily').execute();
  await db.schema.alterTable('link_breakdown_daily_next').renameTo('link_breakdown_daily').execute();
  await db.schema.createIndex('link_breakdown_daily_day_idx').ifNotExists().on('link_breakdown_daily').column('day_start').execute();
}

/** `visit_facts`'s unique key made again over these columns (after the class), an unknown value (NULL) read as '' (migrations 015, 016). */
export async function rekeyVisitFacts(db: MigrationDb, columns: readonly string[]): Promise<void> {
  await db.schema.dropIndex('visit_facts_key').execute();
  const key = sql.join([sql.ref('visitor_class'), ...columns.map((column) => sql`(coalesce(${sql.ref(column)}, ''))`)]);
  await db.schema.createIndex('visit_facts_key').on('visit_facts').unique().expression(key).execute();
}

/** The daily breakdown's CHECK of dimension names replaced: in place on PostgreSQL, by a copy of the table on SQLite. */
export async function allowBreakdownDimensions(db: MigrationDb, dialect: Dialect, dimensions: RawBuilder<unknown>): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table link_breakdown_daily drop constraint if exists link_breakdown_daily_dimension_check`.execute(db);
    await sql`alter table link_breakdown_daily add constraint link_breakdown_daily_dimension_check check (${dimensions})`.execute(db);
    return;
  }
  await rebuildBreakdownDaily(db, dimensions);
}

/** Migration 012's update trigger of the change log (SQLite), over the given columns of `links`. */
export function linkChangesUpdateTrigger(columns: string): RawBuilder<unknown> {
  return sql.raw(`create trigger link_changes_on_update
      after update of ${columns} on links
      begin
        insert into link_changes (domain, code) values (old.domain, old.code);
        insert into link_changes (domain, code) select new.domain, new.code where new.domain <> old.domain or new.code <> old.code;
      end`);
}
