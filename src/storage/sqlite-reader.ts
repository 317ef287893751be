import type SQLite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

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
