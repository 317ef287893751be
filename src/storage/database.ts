import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface OpenDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  close(): Promise<void>;
}

/**
 * Opens the embedded SQLite file. WAL lets readers (redirects) run while the reaper writes;
 * busy_timeout makes a second writer wait instead of failing at once. synchronous=FULL keeps
 * acknowledged writes through a power loss, at a small cost on writes only (docs/adr).
 */
export function openSqlite(file: string, options: { onStatement?: (sql: string) => void } = {}): OpenDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file, options.onStatement ? { verbose: (sql) => options.onStatement!(String(sql)) } : {});
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * Kysely prepares every query anew, and preparing costs SQLite as much as running a primary-key
 * lookup. Statements are keyed by their SQL text, which Kysely produces with placeholders, so a
 * few hundred cover every query the app runs. Reuse is safe because better-sqlite3 runs each
 * statement to completion synchronously (Kysely streaming, which would hold one open, is unused).
 */
function reusingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: 500 });
  return {
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close: () => sqlite.close(),
  };
}
