import type SQLite from 'better-sqlite3';
import {
  CompiledQuery, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely';
import { LRUCache } from 'lru-cache';
import type { SqliteWriter } from './sqlite-writer.js';

/**
 * The main thread's read-only connection. Kysely prepares every query anew, and preparing costs
 * SQLite as much as running a primary-key lookup, so statements are kept by their SQL text
 * (placeholders make a few hundred cover every query the app runs). Reuse is safe because
 * better-sqlite3 runs each statement to completion synchronously.
 */
export class SqliteReader {
  private readonly statements = new LRUCache<string, SQLite.Statement>({ max: 500 });
  private readonly beginRead: SQLite.Statement;
  private readonly endRead: SQLite.Statement;
  private sharing = false;

  constructor(private readonly sqlite: SQLite.Database) {
    this.beginRead = sqlite.prepare('BEGIN');
    this.endRead = sqlite.prepare('COMMIT');
  }

  /**
   * Redirect lookups of one event-loop turn share one read transaction: SQLite spends two fcntl
   * lock calls and an fstat on every transaction, whatever it reads, and that was most of a miss.
   * The transaction ends after the turn, and at once whenever a write is acknowledged
   * (endSharedRead, called by the writer before anyone hears of the write), so no read that
   * follows a commit is served from a snapshot taken before it.
   */
  private shareRead(): void {
    if (this.sharing || this.sqlite.inTransaction) return;
    this.beginRead.run();
    this.sharing = true;
    setImmediate(this.endSharedRead);
  }

  readonly endSharedRead = (): void => {
    if (!this.sharing) return;
    this.sharing = false;
    try {
      if (this.sqlite.inTransaction) this.endRead.run();
    } catch {
      // The connection is closed or gone; the next read reports that.
    }
  };

  /** The prepared statement when `sql` only reads; undefined for anything that writes or cannot be prepared here. */
  readStatement(sql: string): SQLite.Statement | undefined {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      try {
        statement = this.sqlite.prepare(sql);
      } catch {
        return undefined; // e.g. a table that the writer is about to create: the writer reports the real error
      }
      this.statements.set(sql, statement);
    }
    return statement.readonly ? statement : undefined;
  }

  /** Runs a read synchronously, on the calling thread. */
  all<R>(sql: string, parameters: readonly unknown[]): R[] {
    const statement = this.readStatement(sql);
    if (!statement) throw new Error(`not a read-only statement: ${sql}`);
    return statement.all(parameters) as R[];
  }

  /** A read prepared once and run synchronously: the first row, or undefined. For the hot path. */
  prepareFirstRow<R>(sql: string): (...parameters: unknown[]) => R | undefined {
    const statement = this.sqlite.prepare(sql);
    if (!statement.readonly) throw new Error(`not a read-only statement: ${sql}`);
    return (...parameters) => {
      this.shareRead();
      return statement.get(...parameters) as R | undefined;
    };
  }

  close(): void {
    this.endSharedRead();
    this.sqlite.close();
  }
}

/**
 * Kysely's connection on the embedded database: reads run on the main thread's reader, writes and
 * transactions go to the writer thread. There is no connection mutex (Kysely's own SQLite driver
 * has one): reads never wait for writes, and the writer queues writes itself.
 */
class EmbeddedConnection implements DatabaseConnection {
  private session: number | undefined;

  constructor(private readonly reader: SqliteReader, private readonly writer: SqliteWriter) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const statement = { sql: compiled.sql, parameters: compiled.parameters };
    if (this.session !== undefined) return this.writer.execute(this.session, statement) as Promise<QueryResult<R>>;
    try {
      const read = this.reader.readStatement(compiled.sql);
      if (read) return Promise.resolve({ rows: read.all(compiled.parameters) as R[] });
    } catch (error) {
      return Promise.reject(error);
    }
    return this.writer.write(statement) as Promise<QueryResult<R>>;
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the embedded database');
  }

  async begin(): Promise<void> {
    this.session = await this.writer.begin();
  }

  async commit(): Promise<void> {
    const session = this.takeSession();
    await this.writer.commit(session);
  }

  async rollback(): Promise<void> {
    await this.writer.rollback(this.takeSession());
  }

  private takeSession(): number {
    const session = this.session;
    this.session = undefined;
    if (session === undefined) throw new Error('no transaction is open on this connection');
    return session;
  }
}

class EmbeddedDriver implements Driver {
  constructor(private readonly reader: SqliteReader, private readonly writer: SqliteWriter) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new EmbeddedConnection(this.reader, this.writer);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as EmbeddedConnection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as EmbeddedConnection).commit();
  }

  /** Never throws, so the error that ended the transaction is the one the caller sees. */
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as EmbeddedConnection).rollback().catch(() => undefined);
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.writer.close();
    this.reader.close();
  }
}

/**
 * SQLite has transactional DDL; Kysely's own adapter says no only because its driver shares one
 * connection. Saying yes makes the migrator run in one writer transaction, which holds SQLite's
 * write lock from reading the applied migrations to the last one: two processes migrating one
 * file run one after the other (RELIABILITY D-06).
 */
class EmbeddedSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export class EmbeddedSqliteDialect implements Dialect {
  constructor(private readonly reader: SqliteReader, private readonly writer: SqliteWriter) {}

  createDriver(): Driver {
    return new EmbeddedDriver(this.reader, this.writer);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createAdapter() {
    return new EmbeddedSqliteAdapter();
  }

  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
