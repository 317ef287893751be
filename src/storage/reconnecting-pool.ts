import type pg from 'pg';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

// admin_shutdown (pg_terminate_backend, a fast shutdown), crash_shutdown, connection_failure,
// connection_does_not_exist; pg's own errors for a socket the server closed.
const SERVER_ENDED = new Set(['57P01', '57P02', '08006', '08003', 'ECONNRESET', 'EPIPE']);
const SOCKET_CLOSED = /Connection terminated unexpectedly|is not queryable/;

/** Whether a statement failed because its connection is gone, not because of the statement. */
export function isConnectionLost(error: unknown): boolean {
  const err = error as { code?: unknown; message?: unknown };
  return (typeof err?.code === 'string' && SERVER_ENDED.has(err.code)) || (typeof err?.message === 'string' && SOCKET_CLOSED.test(err.message));
}

const READ = /^\s*select\b/i;
const TRANSACTION_START = /^\s*(begin|start transaction)\b/i;
const TRANSACTION_END = /^\s*(commit|rollback|end)\s*;?\s*$/i;

/**
 * One checkout of a pooled connection. A connection ended by the server while it sat idle in the
 * pool (pg_terminate_backend, a failover) fails the first statement sent on it; that statement is
 * sent once more on another connection when running it twice cannot do anything twice:
 * - a `select` outside a transaction: it changes nothing;
 * - the `begin` of a transaction: nothing of the transaction has run yet.
 * Anything else fails as before (503): inside a transaction the earlier statements died with the
 * session, and a write or a `commit` may have been done by the server before the connection went,
 * so running it again could apply it twice.
 */
class ReconnectingClient implements PostgresPoolClient {
  private inTransaction = false;

  constructor(private readonly pool: pg.Pool, private client: pg.PoolClient | undefined) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sql: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sql !== 'string') throw new Error('cursors are not configured on this pool');
    return this.run<R>(sql, parameters ?? []);
  }

  private async run<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const starts = TRANSACTION_START.test(sql);
    const mayRunAgain = starts || (!this.inTransaction && READ.test(sql));
    let result: PostgresQueryResult<R>;
    try {
      result = await this.send<R>(sql, parameters);
    } catch (error) {
      if (!mayRunAgain || !isConnectionLost(error)) throw error;
      this.release(true);
      this.client = await this.pool.connect();
      result = await this.send<R>(sql, parameters);
    }
    if (starts) this.inTransaction = true;
    else if (TRANSACTION_END.test(sql)) this.inTransaction = false;
    return result;
  }

  private async send<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    if (!this.client) throw new Error('the connection was released');
    return (await this.client.query(sql, [...parameters])) as unknown as PostgresQueryResult<R>;
  }

  release(destroy?: boolean): void {
    const client = this.client;
    this.client = undefined;
    client?.release(destroy);
  }
}

/** The pool as Kysely's PostgresDialect sees it: each checkout may move to a fresh connection once. */
export class ReconnectingPool implements PostgresPool {
  constructor(private readonly pool: pg.Pool) {}

  async connect(): Promise<PostgresPoolClient> {
    return new ReconnectingClient(this.pool, await this.pool.connect());
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
