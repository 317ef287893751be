// Drops the test databases of test processes that no longer run (a run stopped with Ctrl-C, a
// crashed file): each is named linkforge_test_<pid>_<random> by test/support/postgres.ts.
import pg from 'pg';

const server = process.env.LINKFORGE_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432';

function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

export async function dropStaleTestDatabases() {
  const client = new pg.Client({ connectionString: `${server}/postgres`, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query("select datname from pg_database where datname ~ '^linkforge_(test|bench)_[0-9]+_[0-9a-f]+$'");
    const stale = rows.map((row) => row.datname).filter((name) => !running(Number(name.split('_')[2])));
    for (const name of stale) await client.query(`drop database if exists ${name} with (force)`);
    return stale.length;
  } finally {
    await client.end();
  }
}
