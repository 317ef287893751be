import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import ts from 'typescript';
import { openSqlite, type OpenDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrations/index.js';
import { WRITER_VISIT_SQL } from '../../src/storage/visits/writer-thread-visit-statements.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { suiteScope } from '../support/teardown.js';

/**
 * The writer thread writes visits in raw SQL (storage/visits/writer-thread-visit-statements.ts),
 * which no Kysely type checks: every table and column it names must be one of schema.ts's and of
 * the migrated database, on both databases, so that a rename in one place fails here.
 */

/** Words of the statements that are SQL, not names of ours. */
const SQL_WORDS = new Set([
  'insert', 'into', 'values', 'on', 'conflict', 'do', 'update', 'set', 'where', 'and', 'cast', 'as', 'real',
  'coalesce', 'max', 'excluded', 'select', 'from', 'returning', 'nothing',
]);

/** Table → columns, as schema.ts's `Database` interface declares them (read with the TypeScript checker). */
function schemaColumns(): Map<string, Set<string>> {
  const file = path.resolve('src/storage/schema.ts');
  const program = ts.createProgram([file], { strict: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const database = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((symbol) => symbol.name === 'Database')!;
  const tables = new Map<string, Set<string>>();
  for (const table of checker.getDeclaredTypeOfSymbol(database).getProperties()) {
    const row = checker.getTypeOfSymbolAtLocation(table, source);
    tables.set(table.name, new Set(row.getProperties().map((column) => column.name)));
  }
  return tables;
}

/** The names a statement uses that `tables` lacks: its tables are the words that name one, every other word is a column of one of them. */
export function unknownNames(statement: string, tables: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const words = statement.replace(/'[^']*'/g, ' ').replace(/@\w+/g, ' ').match(/[a-z_][a-z0-9_]*/gi) ?? [];
  // column1, column2, …: SQLite's names for the columns of a VALUES list.
  const names = words.map((word) => word.toLowerCase()).filter((word) => !SQL_WORDS.has(word) && !/^column\d+$/.test(word));
  const named = names.filter((name) => tables.has(name));
  if (named.length === 0) return [`no known table in: ${statement}`];
  return names.filter((name) => !tables.has(name) && !named.some((table) => tables.get(table)!.has(name)));
}

async function databaseColumns(database: OpenDatabase, tables: Iterable<string>): Promise<Map<string, Set<string>>> {
  const columns = new Map<string, Set<string>>();
  for (const table of tables) {
    const { rows } = database.dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(database.db)
      : await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(database.db);
    if (rows.length > 0) columns.set(table, new Set(rows.map((row) => row.name)));
  }
  return columns;
}

const schema = schemaColumns();

describe('the writer thread\'s raw visit SQL', () => {
  test('names only tables and columns that schema.ts declares', () => {
    assert.ok(WRITER_VISIT_SQL.length >= 8);
    for (const statement of WRITER_VISIT_SQL) assert.deepEqual(unknownNames(statement, schema), [], statement);
  });

  test('the check sees a renamed column and a renamed table', () => {
    const renamedColumn = new Map(schema);
    renamedColumn.set('link_clicks_hourly', new Set([...schema.get('link_clicks_hourly')!].map((c) => (c === 'clicks' ? 'click_count' : c))));
    const hourly = WRITER_VISIT_SQL.find((statement) => statement.includes('link_clicks_hourly'))!;
    assert.deepEqual([...new Set(unknownNames(hourly, renamedColumn))], ['clicks']);
    const renamedTable = new Map(schema);
    renamedTable.delete('visit_ranges');
    renamedTable.set('visit_spans', schema.get('visit_ranges')!);
    const ranges = WRITER_VISIT_SQL.find((statement) => statement.includes('visit_ranges'))!;
    assert.notDeepEqual(unknownNames(ranges, renamedTable), []);
  });

  test('prepares on a migrated SQLite database', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-writer-sql-'));
    const file = path.join(dir, 'linkforge.db');
    const database = openSqlite(file);
    try {
      await migrateToLatest(database.db, database.dialect);
    } finally {
      await database.close();
    }
    const connection = new SQLite(file);
    try {
      for (const statement of WRITER_VISIT_SQL) assert.doesNotThrow(() => connection.prepare(statement), statement);
    } finally {
      connection.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const backend of STORE_BACKENDS) {
    describe(`on migrated ${backend.name}`, () => {
      let database: OpenDatabase;
      const suite = suiteScope();
      before(async () => { database = await backend.open(suite); });

      test('names only tables and columns the migrations made', async () => {
        const columns = await databaseColumns(database, schema.keys());
        for (const statement of WRITER_VISIT_SQL) assert.deepEqual(unknownNames(statement, columns), [], statement);
      });

      test('schema.ts declares exactly the columns the migrations made, for every table the raw SQL names', async () => {
        const named = new Set(WRITER_VISIT_SQL.flatMap((statement) => [...schema.keys()].filter((table) => new RegExp(`\\b${table}\\b`).test(statement))));
        const columns = await databaseColumns(database, named);
        for (const table of named) assert.deepEqual([...columns.get(table) ?? []].sort(), [...schema.get(table)!].sort(), table);
      });
    });
  }
});
