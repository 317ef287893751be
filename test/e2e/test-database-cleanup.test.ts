import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import pg from 'pg';
import { dropStaleTestDatabases } from '../../scripts/drop-stale-test-databases.mjs';
import { POSTGRES_SERVER } from '../support/postgres.js';

test('the test runner drops the databases of test processes that ended without their teardown, and only those', async (context) => {
  const ended = spawnSync(process.execPath, ['-e', '']).pid!;
  const suffix = () => crypto.randomBytes(4).toString('hex');
  const orphan = `linkforge_test_${ended}_${suffix()}`;
  const mine = `linkforge_test_${process.pid}_${suffix()}`;
  const client = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres` });
  await client.connect();
  context.after(async () => {
    await client.query(`drop database if exists ${orphan}`);
    await client.query(`drop database if exists ${mine}`);
    await client.end();
  });
  await client.query(`create database ${orphan}`);
  await client.query(`create database ${mine}`);

  assert.ok(await dropStaleTestDatabases() >= 1);
  const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname = any($1)', [[orphan, mine]]);
  assert.deepEqual(rows.map((row) => row.datname), [mine], 'the ended process\'s database is gone; a running one\'s stays');
});
