import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createSecondInstance } from '../support/second-instance.js';
import { bearer, registerUser } from '../support/users.js';
import { DAY, expiredLinks, gate, HOUR, QUICK_CLEANUP, ran } from '../support/cleanup-fixtures.js';
import { observeCleanup } from '../support/cleanup-observer.js';
import { suiteScope } from '../support/teardown.js';

const ADMIN = 'admin@example.com';
const STATS_FIELDS = [
  'average_cleanup_ms', 'failed_runs', 'is_running', 'last_batch_size', 'last_cleanup_time',
  'successful_runs', 'total_archived', 'total_cleaned', 'total_marked_expired', 'total_visits_deleted',
];

describe('admin cleanup routes', () => {
  let t: TestApp;
  let adminToken: string;
  let userToken: string;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { ...QUICK_CLEANUP, ADMIN_EMAILS: ADMIN, CLEANUP_BATCH_SIZE: '2', CLEANUP_RETENTION: '1d' });
    adminToken = (await registerUser(t.app, ADMIN)).token;
    userToken = (await registerUser(t.app)).token;
  });
  after(() => t.close());

  const stats = () => t.app.inject({ method: 'GET', url: '/api/admin/cleanup/stats', headers: bearer(adminToken) });
  const runNow = (token = adminToken) => t.app.inject({ method: 'POST', url: '/api/admin/cleanup/run', headers: bearer(token) });

  for (const [method, url] of [['GET', '/api/admin/cleanup/stats'], ['POST', '/api/admin/cleanup/run']] as const) {
    test(`${method} ${url}: the 404 of an unknown route without a token, with a bad one and for a non-admin`, async () => {
      for (const headers of [{}, bearer('not.a.jwt'), bearer(userToken)]) {
        const response = await t.app.inject({ method, url, headers });
        assert.equal(response.statusCode, 404);
        assert.equal(response.json().code, 'route_not_found');
      }
    });
  }

  test('stats answer exactly the fields ADR 0005 records, zero before any run', async () => {
    const response = await stats();
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      last_cleanup_time: null, total_cleaned: 0, last_batch_size: 0, successful_runs: 0, failed_runs: 0,
      average_cleanup_ms: 0, is_running: false, total_marked_expired: 0, total_archived: 0, total_visits_deleted: 0,
    });
  });

  test('POST run answers the outcome of the run; stats add up every run, failed ones included', async () => {
    await expiredLinks(t.deps, 5, 2 * DAY);
    await expiredLinks(t.deps, 2, HOUR);
    // Run 1 takes 40 ms on the test clock and fails in its second purge batch.
    observeCleanup(t.deps.cleanup, {
      beforeBatch: ({ phase, batch }) => { if (phase === 'mark' && batch === 1) t.clock.advance(40); },
      beforeCommit: ({ phase, batch }) => { if (phase === 'purge' && batch === 2) throw new Error('injected'); },
    });
    const failed = await runNow();
    assert.equal(failed.statusCode, 200);
    assert.equal(failed.json().status, 'failed');
    assert.match(failed.json().error, /injected/);
    assert.equal(failed.json().purged, 2);

    // Run 2 takes 60 ms and finishes.
    observeCleanup(t.deps.cleanup, { beforeBatch: ({ phase, batch }) => { if (phase === 'mark' && batch === 1) t.clock.advance(60); } });
    const succeeded = await runNow();
    assert.equal(succeeded.statusCode, 200);
    const body = succeeded.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'archived', 'batches', 'duration_ms', 'error', 'finished_at', 'instance', 'last_batch_size', 'marked_expired',
      'purged', 'run_id', 'started_at', 'status', 'stopped_early', 'visits_deleted',
    ]);
    assert.equal(body.status, 'succeeded');
    assert.equal(body.purged, 3);
    assert.equal(body.duration_ms, 60);
    assert.equal(body.last_batch_size, 1);
    assert.equal(body.error, null);
    observeCleanup(t.deps.cleanup, {});

    const response = await stats();
    assert.equal(response.statusCode, 200);
    const json = response.json();
    assert.deepEqual(Object.keys(json).sort(), STATS_FIELDS);
    assert.deepEqual(json, {
      last_cleanup_time: new Date(t.clock.now()).toISOString(),
      total_cleaned: 5,
      last_batch_size: 1,
      successful_runs: 1,
      failed_runs: 1,
      average_cleanup_ms: 60,
      is_running: false,
      total_marked_expired: 7,
      total_archived: 5,
      total_visits_deleted: 0,
    });
  });

  test('is_running is true while a run holds the lock, and POST run meanwhile answers 409 cleanup_locked', async () => {
    const held = gate();
    const entered = gate();
    observeCleanup(t.deps.cleanup, { beforeBatch: async () => { entered.open(); await held.opened; } });
    const running = t.deps.cleanup.job.run();
    try {
      await entered.opened;
      assert.equal((await stats()).json().is_running, true);
      const locked = await runNow();
      assert.equal(locked.statusCode, 409);
      assert.equal(locked.json().code, 'cleanup_locked');
      assert.equal(locked.json().lockedBy, t.deps.cleanup.job.instance);
    } finally {
      held.open();
      observeCleanup(t.deps.cleanup, {});
      ran(await running);
    }
    assert.equal((await stats()).json().is_running, false);
  });

  test('is_running is false for a run left "running" by an instance whose lock expired', async () => {
    await t.deps.database.db.insertInto('cleanup_runs').values({
      instance: 'dead-host:1:abcd', started_at: t.clock.now() - 2 * HOUR, finished_at: null, status: 'running',
      marked_expired: 0, purged: 0, archived: 0, visits_deleted: 0, batches: 0, last_batch_size: 0, duration_ms: null, error: null,
    }).execute();
    assert.equal((await stats()).json().is_running, false);
    await t.deps.database.db.deleteFrom('cleanup_runs').where('instance', '=', 'dead-host:1:abcd').execute();
  });

  test('POST run answers 409 while another instance on the same database holds the lock, which alone is not is_running', async (context) => {
    const other = await createSecondInstance(context, t, { ...QUICK_CLEANUP, CLEANUP_LOCK_AT_MOST: '14m' });
    try {
      const held = await other.deps.cleanup.lock.tryAcquire();
      assert.ok(held);
      const response = await runNow();
      assert.equal(response.statusCode, 409);
      assert.equal(response.json().code, 'cleanup_locked');
      assert.equal(response.json().lockedBy, other.deps.cleanup.job.instance);
      assert.equal(response.json().lockedUntil, new Date(t.clock.now() + 14 * 60_000).toISOString());
      assert.equal((await stats()).json().is_running, false, 'a held lock without a running run is not a run');
      await held.release();
      assert.equal((await runNow()).statusCode, 200);
    } finally {
      await other.close();
    }
  });
});
