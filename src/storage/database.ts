import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
