import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { DatabaseUsage } from '../core/metrics-ports.js';
import type { Database } from './schema.js';
import { EmbeddedSqliteDialect } from './embedded-sqlite-dialect.js';
import { SqliteReader } from './sqlite-reader.js';
import { configureConnection } from './sqlite-connection.js';
import { SqliteFileIdentity } from './sqlite-file-identity.js';
import { ensureSqliteFileUsable, sqliteOpenError } from './sqlite-file-check.js';
import { SqliteWriter } from './sqlite-writer.js';

export type Dialect = 'sqlite' | 'postgres';

/** What only the embedded database offers: synchronous reads and a check of its files on disk. */
export interface EmbeddedAccess {
  readonly reader: SqliteReader;
  readonly writer: SqliteWriter;
  /** Throws when the open files are no longer the ones on disk (deleted or replaced). */
  assertFilesIntact(): void;
}

export interface OpenDatabase {
  /** For the writes that answer a client. */
  readonly db: Kysely<Database>;
  /**
   * The same database for background work (the cleanup job, analytics flushes, imports): on SQLite
   * its writes wait behind the client's and never fail for a slow queue (ADR 0023). Never closed on its own.
   */
  readonly backgroundDb: Kysely<Database>;
  readonly dialect: Dialect;
  readonly embedded?: EmbeddedAccess;
  /** The pool's or the writer queue's state right now (read by /metrics). */
  usage(): DatabaseUsage;
  close(): Promise<void>;
}

export interface SqliteOptions {
  /** Called with every SQL statement run, reads and writes (tests count them). */
  readonly onStatement?: (sql: string) => void;
  /** How long a write may wait for the write lock before it fails as busy (503). */
  readonly writeTimeoutMs?: number;
}

export const DEFAULT_WRITE_TIMEOUT_MS = 5_000;

/**
 * Opens the embedded SQLite file (ADR 0010): reads on a read-only connection of the calling
 * thread, every write through one writer thread with its own connection, so the event loop never
 * waits for a database lock or an fsync.
 */
export function openSqlite(file: string, options: SqliteOptions = {}): OpenDatabase {
  ensureSqliteFileUsable(file);
  const onStatement = options.onStatement;
  let sqlite: SQLite.Database;
  try {
    sqlite = new SQLite(file, onStatement ? { verbose: (sql) => onStatement(String(sql)) } : {});
    configureConnection(sqlite, { busyTimeoutMs: 0, readOnly: true });
  } catch (error) {
    throw sqliteOpenError(file, error);
  }
  const reader = new SqliteReader(sqlite);
  const writer = new SqliteWriter({ file, writeTimeoutMs: options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS }, onStatement, reader.endSharedRead);
  const identity = new SqliteFileIdentity(file);
  const db = new Kysely<Database>({ dialect: new EmbeddedSqliteDialect(reader, writer, 'foreground') });
  const backgroundDb = new Kysely<Database>({ dialect: new EmbeddedSqliteDialect(reader, writer, 'background') });
  const assertFilesIntact = () => {
    const problem = identity.problem();
    if (problem) throw problem;
  };
  return {
    db, backgroundDb, dialect: 'sqlite', embedded: { reader, writer, assertFilesIntact },
    usage: () => ({ kind: 'sqlite', writeQueue: writer.queueDepth }),
    close: () => db.destroy(),
  };
}
