import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from './schema.js';
import type { OpenDatabase } from './database.js';
import { ReconnectingPool } from './reconnecting-pool.js';

export interface PostgresOptions {
  readonly poolMax: number;
  readonly poolMin: number;
  readonly statementTimeoutMs: number;
  readonly connectTimeoutMs: number;
  /** Called with every SQL statement run (tests count them). */
  readonly onStatement?: (sql: string) => void;
  /** Told about errors of idle pooled connections (a terminated backend, a restarted server). */
  readonly onIdleError?: (error: Error) => void;
}

const INT8_OID = 20;

/**
 * Times and counters are `bigint` columns; pg hands them out as strings by default, because a
 * JavaScript number is exact only below 2^53. Epoch milliseconds and our counters stay far below
 * that, so they are read as numbers, for this pool only (pg's global parser table is left alone).
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/**
 * The scaled mode's database: one pg pool behind Kysely, the same query code as SQLite. Nothing
 * waits forever: a connection is given `connectTimeoutMs`, a statement `statementTimeoutMs` on
 * the server, and the client stops waiting a second later (a server that vanished answers nothing).
 * A connection the server ended while it was idle costs no request an error where a second
 * connection can safely serve it (reconnecting-pool.ts).
 */
export function openPostgres(url: string, options: PostgresOptions): OpenDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax,
    min: options.poolMin,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    query_timeout: options.statementTimeoutMs + 1_000,
    keepAlive: true,
    types,
  });
  // Without a listener, an idle connection's error (pg_terminate_backend, a server restart) would
  // crash the process; the pool drops that connection and opens a new one when needed.
  pool.on('error', (error) => options.onIdleError?.(error));
  // A checked-out connection has no pool listener, so a connection ended under a running request
  // would crash the process too. The request's own query fails with the error, and the pool drops
  // the broken connection when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const onStatement = options.onStatement;
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new ReconnectingPool(pool) }),
    log: onStatement ? (event) => onStatement(event.query.sql) : undefined,
  });
  return {
    db, dialect: 'postgres',
    // One pool serves both: a client's query and a background job's wait for a connection alike.
    backgroundDb: db,
    usage: () => ({ kind: 'postgres', pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } }),
    close: () => db.destroy(),
  };
}

/** Where a postgres:// URL points, for log lines (never its password). */
export function describePostgresUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}
