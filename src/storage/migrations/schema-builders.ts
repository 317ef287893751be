import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
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
