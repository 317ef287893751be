import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Link } from '../../src/core/link.js';
import { insertLink } from '../support/links.js';
import { assertUnavailable, returned } from '../support/outage-answers.js';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.js';
import { startServer } from '../support/server-process.js';
import { createTestApp, postgresEnv, type TestApp } from '../support/test-app.js';
import { type TeardownScope } from '../support/teardown.js';

const HOUR = 3_600_000;

/** An app on a PostgreSQL server of the test's own, with short timeouts; both removed when `scope` ends. */
async function onPrivateServer(scope: TeardownScope, work: (server: PrivatePostgres, t: TestApp) => Promise<void>): Promise<void> {
  const server = await startPrivatePostgres(scope);
  const env = { ...postgresEnv(server.database), DB_CONNECT_TIMEOUT: '1s', DB_STATEMENT_TIMEOUT: '1s', RATE_LIMIT_ANON: '0' };
  const t = await createTestApp(scope, env, { database: 'postgres' });
  await work(server, t);
}

/** Cache hits keep their redirect; a miss, a create and readiness answer 503 with Retry-After. */
async function assertDegraded(t: TestApp, cached: ReadonlyArray<readonly [Link, number]>, missed: Link): Promise<void> {
  for (let round = 0; round < 2; round++) {
    for (const [link, status] of cached) {
      assert.equal((await returned(t.app.inject({ url: `/${link.code}` }), 'cached redirect')).statusCode, status);
    }
    assertUnavailable(await returned(t.app.inject({ url: `/${missed.code}` }), 'miss'), `miss ${round}`);
    const create = await returned(t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: `https://example.com/down/${round}` } }), 'create');
    assertUnavailable(create, `create ${round}`);
    assert.equal(create.json().code, 'store_unavailable');
    assertUnavailable(await returned(t.app.inject({ url: '/readyz' }), 'readiness'), `readiness ${round}`);
  }
}

async function assertRecovered(t: TestApp, missed: Link): Promise<void> {
  assert.equal((await t.app.inject({ url: '/readyz' })).statusCode, 200, 'ready again without a restart');
  assert.equal((await t.app.inject({ url: `/${missed.code}` })).statusCode, 301, 'misses redirect again');
  const create = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/back' } });
  assert.equal(create.statusCode, 201, create.body);
}

// A database that is down costs the misses and the writes, never the cache hits,
// and never a restart.
test('with its PostgreSQL stopped, cached links keep redirecting, misses, creates and readiness answer 503 with Retry-After, and all recovers when it starts again', { timeout: 90_000 }, async (context) => {
  await onPrivateServer(context, async (server, t) => {
    const permanent = await insertLink(t.deps);
    const temporary = await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() + HOUR });
    const missed = await insertLink(t.deps);
    assert.equal((await t.app.inject({ url: `/${permanent.code}` })).statusCode, 301);
    assert.equal((await t.app.inject({ url: `/${temporary.code}` })).statusCode, 302);

    await server.stop();
    await assertDegraded(t, [[permanent, 301], [temporary, 302]], missed);
    await server.start();
    await assertRecovered(t, missed);
  });
});

// A server that stops answering with its connections open (a hung host, a
// network partition) must cost a bounded wait, never a request that hangs or a 500.
test('with its PostgreSQL hung (SIGSTOP), cached links keep redirecting, misses, creates and readiness answer 503 with Retry-After, and all recovers when it goes on', { timeout: 90_000 }, async (context) => {
  await onPrivateServer(context, async (server, t) => {
    const cached = await insertLink(t.deps);
    const missed = await insertLink(t.deps);
    assert.equal((await t.app.inject({ url: `/${cached.code}` })).statusCode, 301);

    server.pause();
    try {
      await assertDegraded(t, [[cached, 301]], missed);
    } finally {
      server.resume();
    }
    await assertRecovered(t, missed);
  });
});

/**
 * Starts a real server while PostgreSQL turns it away, waits for two retry lines naming `reason`,
 * runs `letIn`, and checks every retry line and that the server became ready without a stack trace.
 */
async function startWhileTurnedAway(scope: TeardownScope, env: Record<string, string>, port: number, reason: string, letIn: () => Promise<void>): Promise<void> {
  // An attempt that lands while the server is starting up may name PostgreSQL's reason instead.
  const retryLine = (why: string) => new RegExp(`PostgreSQL at 127\\.0\\.0\\.1:${port}/linkforge is not reachable \\(${why}\\); retrying in [0-9.]+ s`);
  const turnedAway = retryLine(reason);
  let sawRetries!: () => void;
  const twoRetries = new Promise<void>((resolve) => { sawRetries = resolve; });
  const starting = startServer(scope, { ...env, LOG_LEVEL: 'info' }, {
    onOutput: (output) => { if (output.split('\n').filter((line) => turnedAway.test(line)).length >= 2) sawRetries(); },
  });
  await Promise.race([twoRetries, starting]); // a server that exits instead fails here, with its output
  await letIn();
  const server = await starting;
  const output = server.output();
  for (const line of output.split('\n').filter((l) => /not reachable/.test(l))) assert.match(line, retryLine('.+'));
  assert.doesNotMatch(output, /^\s+at /m, 'no stack trace');
  assert.doesNotMatch(output, /"stack"/, 'no stack trace in the log');
  assert.equal((await fetch(`${server.baseUrl}/readyz`, { signal: AbortSignal.timeout(10_000) })).status, 200);
}

// Issue 8 item 7: a database that is not up yet is waited for with one line per attempt.
test('a server started while its PostgreSQL is down logs one clear line per retry, no stack trace, and becomes ready once it starts', { timeout: 90_000 }, async (context) => {
  const database = await startPrivatePostgres(context);
  await database.stop();
  await startWhileTurnedAway(context, postgresEnv(database.database), database.port, 'ECONNREFUSED', () => database.start());
});

test('a server started while its database is at its connection limit logs PostgreSQL\'s reason, not a bare SQLSTATE, and starts once there is room', { timeout: 90_000 }, async (context) => {
  const database = await startPrivatePostgres(context);
  // A superuser is exempt from connection limits, so the app connects as a role of its own.
  await database.admin('create role linkforge_app login');
  await database.admin('alter database linkforge owner to linkforge_app');
  await database.admin('alter database linkforge connection limit 0');
  const env = { ...postgresEnv(database.database), DATABASE_URL: database.database.url.replace('postgres@', 'linkforge_app@') };
  // The log line is JSON: its quotes are escaped.
  await startWhileTurnedAway(context, env, database.port, 'too many connections for database \\\\"linkforge\\\\"',
    () => database.admin('alter database linkforge connection limit -1'));
});
