import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pg from 'pg';
import { StoreUnavailableError } from '../../src/core/errors.js';
import { DEFAULT_DOMAIN } from '../../src/core/link.js';
import { insertLink } from '../support/links.js';
import { assertUnavailable, returned } from '../support/outage-answers.js';
import { createLink } from '../support/owned-links.js';
import { KyselyLinkStore } from '../../src/storage/link-store.js';
import { openPostgres } from '../../src/storage/postgres-database.js';
import { guarded } from '../../src/storage/store-errors.js';
import { createTestDatabase, POSTGRES_SERVER, terminateConnections } from '../support/postgres.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, DEFAULT_PASSWORD, registerUser, uniqueEmail } from '../support/users.js';
import { onTeardown } from '../support/teardown.js';

const FAST_TIMEOUTS = { DB_CONNECT_TIMEOUT: '1s', DB_STATEMENT_TIMEOUT: '1s', RATE_LIMIT_ANON: '0', RATE_LIMIT_AUTH: '0' };

/** Another client of the app's database (an operator's session, a migration) that takes locks. */
async function connectLockHolder(t: TestApp): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: t.postgres!.url });
  client.on('error', () => {}); // its connection is cut too, on purpose
  await client.connect();
  return client;
}

/** Polls pg_stat_activity, from outside any transaction of the test's (it is a snapshot within one). */
async function untilSessions(database: string, where: string, done: (n: number) => boolean): Promise<void> {
  const observer = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres` });
  await observer.connect();
  try {
    for (;;) {
      const { rows } = await observer.query(`select count(*)::int as n from pg_stat_activity where datname = $1 and ${where}`, [database]);
      if (done(rows[0].n)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await observer.end();
  }
}

const untilWaitingOnLocks = (database: string, count: number) => untilSessions(database, "wait_event_type = 'Lock'", (n) => n >= count);
const untilNoSessions = (database: string) => untilSessions(database, 'true', (n) => n === 0);

const patchLink = (t: TestApp, token: string, id: number, url: string) =>
  t.app.inject({ method: 'PATCH', url: `/api/urls/${id}`, headers: bearer(token), payload: { url } });

// Issue 8 items 7 and 8: a failover or an operator ends our connections; the pool replaces them.
test('connections cut while the app is idle are replaced: the next requests succeed', { timeout: 60_000 }, async (context) => {
  const t = await createTestApp(context, FAST_TIMEOUTS, { database: 'postgres' });
    const links = await Promise.all(Array.from({ length: 8 }, () => insertLink(t.deps)));
    assert.ok(await terminateConnections(t.postgres!.name) >= 1, 'the app had connections to cut');
    await untilNoSessions(t.postgres!.name);

    for (const link of links) assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
    const create = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/after-cut' } });
    assert.equal(create.statusCode, 201, create.body);
    assert.equal((await t.app.inject({ url: '/readyz' })).statusCode, 200);
});

const insertLinks = (t: TestApp, count: number) => Promise.all(Array.from({ length: count }, () => insertLink(t.deps)));

/**
 * Ends every connection to `database` and returns once they are gone, blocking this process
 * meanwhile: the app's pool learns of it only when it next reads its sockets, as a pool does that
 * hands out a connection the moment the server ends it.
 */
function terminateWhileIdle(database: string): number {
  const script = `const pg = require('pg'); const c = new pg.Client(process.argv[1]); c.connect()
    .then(() => c.query('select pg_terminate_backend(pid, 5000) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [process.argv[2]]))
    .then((r) => { console.log(r.rows.filter((row) => row.ended).length); return c.end(); })`;
  return Number(execFileSync(process.execPath, ['-e', script, `${POSTGRES_SERVER}/postgres`, database], { encoding: 'utf8' }));
}

test('connections the server ends while idle in the pool cost no request an error: reads and transactions move to a fresh connection', { timeout: 60_000 }, async (context) => {
  const t = await createTestApp(context, FAST_TIMEOUTS, { database: 'postgres' });
    const { token } = await registerUser(t.app);
    const link = await createLink(t.app, token, { url: 'https://example.com/idle-cut' });
    const [warm, misses] = [await insertLinks(t, 6), await insertLinks(t, 6)];
    // Several pooled connections have served, and are idle now.
    await Promise.all(warm.map((other) => t.app.inject({ url: `/${other.code}` })));

    assert.ok(terminateWhileIdle(t.postgres!.name) >= 2, 'the app had connections to end');
    const answers = await Promise.all([
      ...misses.map((miss) => t.app.inject({ url: `/${miss.code}` })),
      t.app.inject({ url: `/api/urls/${link.id}`, headers: bearer(token) }),
      t.app.inject({ url: `/api/urls/${link.id}/stats`, headers: bearer(token) }),
      patchLink(t, token, link.id, 'https://example.com/idle-cut/changed'),
      t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: uniqueEmail('idle-cut'), password: DEFAULT_PASSWORD } }),
    ]);
    for (const answer of answers) assert.ok(answer.statusCode < 400, `${answer.statusCode} ${answer.body}`);
});

test('on a pooled connection the server ended, a select and a begin are sent again on another one; a write outside a transaction is not', { timeout: 60_000 }, async (context) => {
  const testDatabase = await createTestDatabase();
  onTeardown(context, () => testDatabase.drop());
  // One connection: the statement after the cut always draws the connection that was cut.
  const database = openPostgres(testDatabase.url, { poolMax: 1, poolMin: 0, statementTimeoutMs: 5_000, connectTimeoutMs: 3_000 });
  onTeardown(context, () => database.close());
  const { db } = database;
  const count = async () => (await sql<{ n: number }>`select count(*)::int as n from cut_probe`.execute(db)).rows[0]!.n;
  /** Leaves one idle pooled connection, then ends it from the server. */
  const cutIdleConnection = async () => {
    await sql`select 1`.execute(db);
    assert.equal(terminateWhileIdle(testDatabase.name), 1);
  };
    await sql`create table cut_probe (n integer)`.execute(db);

    await cutIdleConnection();
    assert.equal(await count(), 0, 'the select is answered by a fresh connection');

    await cutIdleConnection();
    await db.transaction().execute((trx) => sql`insert into cut_probe values (1)`.execute(trx));
    assert.equal(await count(), 1, 'the transaction began on a fresh connection and committed');

    // The server may have run a write before its connection went: it is never sent twice.
    await cutIdleConnection();
    await assert.rejects(sql`insert into cut_probe values (2)`.execute(db), /terminating connection|Connection terminated/);
    assert.equal(await count(), 1);
});

test('connections cut under requests in flight, one inside a transaction, answer 503 at most, and the next requests succeed', { timeout: 60_000 }, async (context) => {
  const t = await createTestApp(context, { ...FAST_TIMEOUTS, DB_STATEMENT_TIMEOUT: '60s' }, { database: 'postgres' });
  const holder = await connectLockHolder(t);
  onTeardown(context, () => holder.end().catch(() => {}));
    const { token } = await registerUser(t.app);
    const link = await createLink(t.app, token, { url: 'https://example.com/cut' });
    const missed = await insertLink(t.deps);
    const email = uniqueEmail('cut');
    await holder.query('begin');
    await holder.query('select id from links where id = $1 for update', [link.id]);
    // Registration inserts in a transaction; an uncommitted row with the same email makes it wait.
    await holder.query("insert into users (email, password_hash, role, created_at) values ($1, 'x', 'user', 0)", [email]);

    const update = patchLink(t, token, link.id, 'https://example.com/cut/changed');
    const register = t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: DEFAULT_PASSWORD } });
    await untilWaitingOnLocks(t.postgres!.name, 2);
    assert.ok(await terminateConnections(t.postgres!.name) >= 3);

    for (const [what, request] of [['update', update], ['register', register]] as const) {
      const response = await returned(request, what);
      // The holder's rollback can free the lock before the waiting backend is ended.
      if (response.statusCode < 300) continue;
      assertUnavailable(response, what);
    }

    // An idle pooled connection cut a moment ago may not have told the pool yet: a request that
    // draws it answers 503 (never 500) and the pool drops it. One per pooled connection at most (DB_POOL_MAX, 10).
    let again = await patchLink(t, token, link.id, 'https://example.com/cut/again');
    for (let attempt = 0; again.statusCode === 503 && attempt < 10; attempt++) {
      assertUnavailable(again, 'update after the cut');
      again = await patchLink(t, token, link.id, 'https://example.com/cut/again');
    }
    assert.equal(again.statusCode, 200);
    await registerUser(t.app);
    assert.equal((await t.app.inject({ url: `/${missed.code}` })).statusCode, 301);
    assert.equal((await t.app.inject({ url: '/readyz' })).statusCode, 200);
});

test('a transaction whose connection is cut between its statements fails as unavailable, without crashing, and the next one commits', { timeout: 60_000 }, async (context) => {
  const t = await createTestApp(context, FAST_TIMEOUTS, { database: 'postgres' });
  // A transaction as a store method runs one: the stores built on it, the whole under the stores' error mapping.
  const inTransaction = <T>(work: (links: KyselyLinkStore) => Promise<T>) =>
    guarded(() => t.deps.database.db.transaction().execute((trx) => work(new KyselyLinkStore(trx))));
  const failure = await inTransaction(async (links) => {
      await links.findRedirectTarget(DEFAULT_DOMAIN, 'before');
      assert.ok(await terminateConnections(t.postgres!.name) >= 1);
      await untilNoSessions(t.postgres!.name);
      await links.findRedirectTarget(DEFAULT_DOMAIN, 'after');
    }).then(() => assert.fail('the transaction went on after its connection was cut'), (error: unknown) => error);
    assert.ok(failure instanceof StoreUnavailableError, String(failure));

    const committed = await inTransaction(async (links) => links.findRedirectTarget(DEFAULT_DOMAIN, 'again'));
    assert.equal(committed, undefined);
});

test('a statement that waits on a lock past DB_STATEMENT_TIMEOUT answers 503 with Retry-After, not a hang', { timeout: 60_000 }, async (context) => {
  const t = await createTestApp(context, FAST_TIMEOUTS, { database: 'postgres' });
  const holder = await connectLockHolder(t);
  onTeardown(context, () => holder.end().catch(() => {}));
    const { token } = await registerUser(t.app);
    const link = await createLink(t.app, token, { url: 'https://example.com/locked' });
    await holder.query('begin');
    await holder.query('select id from links where id = $1 for update', [link.id]);

    // The lock is held until the request has returned: it can only return by giving up.
    assertUnavailable(await returned(patchLink(t, token, link.id, 'https://example.com/locked/changed'), 'update'), 'update');

    await holder.query('rollback');
    assert.equal((await patchLink(t, token, link.id, 'https://example.com/locked/changed')).statusCode, 200);
});

// A pool with no free connection sheds requests after DB_CONNECT_TIMEOUT.
test('with every pooled connection busy, other requests answer 503 after DB_CONNECT_TIMEOUT, and are served once one is free', { timeout: 60_000 }, async (context) => {
  const t = await createTestApp(context, { ...FAST_TIMEOUTS, DB_POOL_MAX: '1', DB_STATEMENT_TIMEOUT: '60s' }, { database: 'postgres' });
  const holder = await connectLockHolder(t);
  onTeardown(context, () => holder.end().catch(() => {}));
    const { token } = await registerUser(t.app);
    const link = await createLink(t.app, token, { url: 'https://example.com/busy' });
    const missed = await insertLink(t.deps);
    await holder.query('begin');
    await holder.query('select id from links where id = $1 for update', [link.id]);
    const update = patchLink(t, token, link.id, 'https://example.com/busy/changed');
    await untilWaitingOnLocks(t.postgres!.name, 1);

    assertUnavailable(await returned(t.app.inject({ url: `/${missed.code}` }), 'miss'), 'miss');
    const create = await returned(t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/busy/new' } }), 'create');
    assertUnavailable(create, 'create');
    assertUnavailable(await returned(t.app.inject({ url: '/readyz' }), 'readiness'), 'readiness');

    await holder.query('commit');
    assert.equal((await update).statusCode, 200, 'the waiting update goes through once the lock is free');
    assert.equal((await t.app.inject({ url: `/${missed.code}` })).statusCode, 301);
});
