import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HEALTH_CHECK_LOCK_NAME } from '../../src/jobs/health-check-jobs.js';
import { KyselyHealthCheckStore } from '../../src/storage/health-check-store.js';
import { KyselyJobLockStore } from '../../src/storage/job-lock-store.js';
import { fakeDns } from '../support/fake-dns.js';
import { checkedState, jobsFor, ranAndChecked, statusServer } from '../support/health-check-runs.js';
import { insertLink, setLinkColumns } from '../support/links.js';
import { eventually, HOUR } from '../support/cleanup-fixtures.js';
import { closedPort, startTarget, withServer, type TargetServer } from '../support/target-servers.js';
import { onTeardown, type TeardownScope } from '../support/teardown.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** A fresh app, closed when `scope` ends, and a status server, closed after `body`. */
async function withAppAndTarget(scope: TeardownScope, body: (t: TestApp, target: TargetServer) => Promise<void>): Promise<void> {
  const t = await createTestApp(scope);
    await withServer(statusServer(), (target) => body(t, target));
}

describe('the destination health check job', () => {
  test('stores the final status of each link and when it was asked: 200, 404, 500, 0 when unreachable', (context) => withAppAndTarget(context, async (t, target) => {
    const links = await Promise.all([200, 404, 500].map((status) => insertLink(t.deps, { originalUrl: target.url(`/?status=${status}`) })));
    const nowhere = await insertLink(t.deps, { originalUrl: `http://127.0.0.1:${await closedPort()}/` });
    assert.equal(ranAndChecked(await jobsFor(t).checker.run()), 4);
    const now = t.clock.now();
    assert.deepEqual(await Promise.all(links.map((link) => checkedState(t, link.id))),
      [{ status: 200, at: now }, { status: 404, at: now }, { status: 500, at: now }]);
    assert.deepEqual(await checkedState(t, nowhere.id), { status: 0, at: now });
  }));

  test('with private destinations refused, an internal destination is stored as 0 and never reached', (context) => withAppAndTarget(context, async (t, secret) => {
    const literal = await insertLink(t.deps, { originalUrl: secret.url('/') });
    const named = await insertLink(t.deps, { originalUrl: `http://public.example:${secret.port}/` });
    const run = await jobsFor(t, { allowPrivate: false, resolve: fakeDns({ 'public.example': ['127.0.0.1'] }) }).checker.run();
    assert.equal(ranAndChecked(run), 2);
    assert.deepEqual(await checkedState(t, literal.id), { status: 0, at: t.clock.now() });
    assert.deepEqual(await checkedState(t, named.id), { status: 0, at: t.clock.now() });
    assert.equal(secret.requests.length, 0);
  }));

  test('asks never-checked links first, then the oldest check first; expired and deleted links are not asked', (context) => withAppAndTarget(context, async (t, target) => {
    const store = new KyselyHealthCheckStore(t.deps.database.db);
    const make = (name: string) => insertLink(t.deps, { originalUrl: target.url(`/${name}`) });
    const [old, newer, never, oldest] = [await make('old'), await make('newer'), await make('never'), await make('oldest')];
    await store.recordCheck(old.id, 200, t.clock.now() - 3 * HOUR);
    await store.recordCheck(newer.id, 200, t.clock.now() - 2 * HOUR);
    await store.recordCheck(oldest.id, 200, t.clock.now() - 4 * HOUR);
    await insertLink(t.deps, { originalUrl: target.url('/expired'), expiresAt: t.clock.now() });
    const deleted = await make('deleted');
    await setLinkColumns(t.deps, deleted.id, { status: 'DELETED', deleted_at: t.clock.now() });
    assert.equal(ranAndChecked(await jobsFor(t, { concurrency: 1 }).checker.run()), 4);
    assert.deepEqual(target.requests.map((r) => r.path), ['/never', '/oldest', '/old', '/newer']);
  }));

  test('a link checked less than half an interval ago is not asked again; one checked longer ago is', (context) => withAppAndTarget(context, async (t, target) => {
    const link = await insertLink(t.deps, { originalUrl: target.url('/') });
    const jobs = jobsFor(t);
    assert.equal(ranAndChecked(await jobs.checker.run()), 1);
    t.clock.advance(HOUR / 2);
    assert.equal(ranAndChecked(await jobs.checker.run()), 0);
    t.clock.advance(1);
    assert.equal(ranAndChecked(await jobs.checker.run()), 1);
    assert.deepEqual(await checkedState(t, link.id), { status: 200, at: t.clock.now() });
    assert.equal(target.requests.length, 2);
  }));

  test('asks at most one destination at a time per host', async (context) => {
    const t = await createTestApp(context);
    const hosts = ['a.example', 'b.example', 'c.example'];
    // Each server holds an answer until a second request reaches it (or 300 ms pass).
    const servers: TargetServer[] = [];
    for (const _ of hosts) {
      const index = servers.length;
      servers.push(await statusServer(() => servers[index]!.requests.length % 3 === 0, `127.0.0.${index + 2}`));
    }
    onTeardown(context, () => Promise.all(servers.map((server) => server.close())));
      for (let round = 0; round < 3; round++) {
        for (const [i, host] of hosts.entries()) await insertLink(t.deps, { originalUrl: `http://${host}:${servers[i]!.port}/${round}` });
      }
      const dns = fakeDns(Object.fromEntries(hosts.map((host, i) => [host, [servers[i]!.host]])));
      assert.equal(ranAndChecked(await jobsFor(t, { resolve: dns, concurrency: 4 }).checker.run()), 9);
      assert.deepEqual(servers.map((server) => server.maxInFlight()), [1, 1, 1]);
  });

  test('asks at most `concurrency` destinations at once, and does use that many', async (context) => {
    const t = await createTestApp(context);
    let inFlight = 0;
    let maxInFlight = 0;
    const hold = (_request: unknown, response: import('node:http').ServerResponse) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const startedAt = Date.now();
      // Held until two are in flight (or 300 ms pass), so a run that asks one at a time is seen.
      const answer = () => (inFlight >= 2 || Date.now() - startedAt > 300 ? response.end() : setTimeout(answer, 5));
      response.once('close', () => { inFlight -= 1; });
      answer();
    };
    // Six addresses, each paced on its own.
    const targets: TargetServer[] = [];
    for (let i = 0; i < 6; i++) targets.push(await startTarget(hold, `127.0.0.${i + 2}`));
    onTeardown(context, () => Promise.all(targets.map((target) => target.close())));
      const hosts = targets.map((_, i) => `h${i}.example`);
      for (const [i, host] of hosts.entries()) await insertLink(t.deps, { originalUrl: `http://${host}:${targets[i]!.port}/` });
      const dns = fakeDns(Object.fromEntries(hosts.map((host, i) => [host, [targets[i]!.host]])));
      assert.equal(ranAndChecked(await jobsFor(t, { resolve: dns, concurrency: 2 }).checker.run()), 6);
      assert.equal(maxInFlight, 2);
  });

  test('does not run while another instance holds its lock, and releases its own when done', (context) => withAppAndTarget(context, async (t, target) => {
    await insertLink(t.deps, { originalUrl: target.url('/') });
    const locks = new KyselyJobLockStore(t.deps.database.db);
    await locks.tryAcquire(HEALTH_CHECK_LOCK_NAME, 'another-instance', t.clock.now(), t.clock.now() + HOUR);
    const jobs = jobsFor(t);
    assert.deepEqual(await jobs.checker.run(), {
      outcome: 'locked',
      holder: { name: HEALTH_CHECK_LOCK_NAME, lockedBy: 'another-instance', lockedAt: t.clock.now(), lockUntil: t.clock.now() + HOUR },
    });
    assert.equal(target.requests.length, 0);
    t.clock.advance(HOUR);
    assert.equal(ranAndChecked(await jobs.checker.run()), 1);
    assert.ok((await locks.findLock(HEALTH_CHECK_LOCK_NAME))!.lockUntil <= t.clock.now(), 'released');
  }));

  // The check's own limit is a minute: only the abort can end it inside the test's bound.
  test('stopping aborts a hanging check, leaves its link unchecked and releases the lock', { timeout: 15_000 }, async (context) => {
    const t = await createTestApp(context);
    const hang = await startTarget(() => {});
    onTeardown(context, () => hang.close());
      const link = await insertLink(t.deps, { originalUrl: hang.url('/') });
      const jobs = jobsFor(t, { timeoutMs: 60_000 });
      const running = jobs.checker.run();
      await eventually(() => hang.requests.length === 1, 5000, 'the check to reach the target');
      await jobs.stop();
      const run = await running;
      assert.deepEqual(run, { outcome: 'ran', checked: 0, deferred: 0, stoppedEarly: 'shutdown', error: null });
      assert.deepEqual(await checkedState(t, link.id), { status: null, at: null });
      const lock = await new KyselyJobLockStore(t.deps.database.db).findLock(HEALTH_CHECK_LOCK_NAME);
      assert.ok(lock!.lockUntil <= t.clock.now(), 'released');
      await eventually(() => hang.closedSockets() === 1, 5000, 'the socket to close');
  });

  test('the composition schedules it with HEALTHCHECK_INTERVAL and ALLOW_PRIVATE_DESTINATIONS, and close() stops it', async (context) => {
    const t = await createTestApp(context, { HEALTHCHECK_INTERVAL: '1ms', ALLOW_PRIVATE_DESTINATIONS: 'true' });
    const target = await statusServer();
    onTeardown(context, () => target.close());
      const link = await insertLink(t.deps, { originalUrl: target.url('/?status=203') });
      t.deps.healthCheck.scheduler.start();
      await eventually(async () => (await checkedState(t, link.id)).status === 203, 5000, 'the scheduled check');
      await t.close();
    assert.equal(t.deps.healthCheck.scheduler.isStarted, false);
  });
});
