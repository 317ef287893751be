import {
  CompiledQuery, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely';
import type { SqliteReader } from './sqlite-reader.js';
import type { WritePriority } from './sqlite-writer-protocol.js';
import type { SqliteWriter } from './sqlite-writer.js';

/**
 * Kysely's connection on the embedded database: reads run on the main thread's reader, writes and
 * transactions go to the writer thread. There is no connection mutex (Kysely's own SQLite driver
 * has one): reads never wait for writes, and the writer queues writes itself.
 */
class EmbeddedConnection implements DatabaseConnection {
  private session: number | undefined;

  constructor(private readonly reader: SqliteReader, private readonly writer: SqliteWriter, private readonly priority: WritePriority) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const statement = { sql: compiled.sql, parameters: compiled.parameters };
    if (this.session !== undefined) return this.writer.execute(this.session, statement) as Promise<QueryResult<R>>;
    try {
      const read = this.reader.readStatement(compiled.sql);
      if (read) return Promise.resolve({ rows: read.all(compiled.parameters) as R[] });
    } catch (error) {
      return Promise.reject(error);
    }
    return this.writer.write(statement, this.priority) as Promise<QueryResult<R>>;
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the embedded database');
  }

  async begin(): Promise<void> {
    this.session = await this.writer.begin(this.priority);
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
  constructor(private readonly reader: SqliteReader, private readonly writer: SqliteWriter, private readonly priority: WritePriority) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new EmbeddedConnection(this.reader, this.writer, this.priority);
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
 * file run one after the other (test/storage/concurrent-migrations.test.ts).
 */
class EmbeddedSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * `priority` is the class of every write and transaction of the Kysely instance built on it
 * (ADR 0023): database.ts builds one for clients and one for background work on the same writer.
 */
export class EmbeddedSqliteDialect implements Dialect {
  constructor(private readonly reader: SqliteReader, private readonly writer: SqliteWriter, private readonly priority: WritePriority) {}

  createDriver(): Driver {
    return new EmbeddedDriver(this.reader, this.writer, this.priority);
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
