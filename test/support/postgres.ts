import crypto from 'node:crypto';
import pg from 'pg';

/** The machine's PostgreSQL server (user postgres, trust auth on loopback: docs/testing-and-benchmarks.md); tests never use another host. */
export const POSTGRES_SERVER = process.env.LINKFORGE_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432';

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres`, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database of its own for one test app or contract run; `drop` removes it even with
 * connections still open. A suite that cannot reach the server fails here: it never skips.
 * `prefix` names what made it (the benches use their own).
 */
export async function createTestDatabase(prefix = 'linkforge_test'): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  await admin((client) => client.query(`create database ${name}`));
  return {
    name,
    url: `${POSTGRES_SERVER}/${name}`,
    drop: () => admin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/** Ends every connection to `database` from the server side, as a failover or an operator would. */
export async function terminateConnections(database: string): Promise<number> {
  return admin(async (client) => {
    const result = await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
    return result.rowCount ?? 0;
  });
}

/** Which database the HTTP suites run on: `LINKFORGE_TEST_DATABASE=postgres npm test -- test/http`. */
export function httpSuiteDatabase(): 'sqlite' | 'postgres' {
  const chosen = process.env.LINKFORGE_TEST_DATABASE ?? 'sqlite';
  if (chosen !== 'sqlite' && chosen !== 'postgres') throw new Error(`LINKFORGE_TEST_DATABASE must be sqlite or postgres, not ${chosen}`);
  return chosen;
}
