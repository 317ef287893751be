import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { DatabaseLock } from '../../src/jobs/database-lock.js';
import { CLEANUP_LOCK_NAME } from '../../src/jobs/cleanup-jobs.js';
import { KyselyJobLockStore } from '../../src/storage/job-lock-store.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createSecondInstance } from '../support/second-instance.js';
import { observeCleanup } from '../support/cleanup-observer.js';
import { MINUTE, QUICK_CLEANUP, expiredLinks, linkIds, DAY, ran, runRows } from '../support/cleanup-fixtures.js';

function lockFor(t: TestApp, instance: string, atMost = 14 * MINUTE, atLeast = 10 * MINUTE): DatabaseLock {
  return new DatabaseLock({
    store: new KyselyJobLockStore(t.deps.database.db), clock: t.clock, name: 'test-job', instance,
    lockAtMostMs: atMost, lockAtLeastMs: atLeast,
  });
}

const lockRow = (t: TestApp, name = 'test-job') =>
  t.deps.database.db.selectFrom('shedlock').selectAll().where('name', '=', name).executeTakeFirst();

// The store's own semantics (contention, who may release) are in test/contract/job-lock-store.test.ts.
describe('the database lock (ShedLock semantics)', () => {
  test('acquiring writes lock_until = now + lockAtMost, locked_at = now, locked_by = the instance', async (context) => {
    const t = await createTestApp(context, );
    try {
      const held = await lockFor(t, 'a').tryAcquire();
      assert.ok(held);
      assert.deepEqual(await lockRow(t), { name: 'test-job', lock_until: t.clock.now() + 14 * MINUTE, locked_at: t.clock.now(), locked_by: 'a' });
    } finally {
      await t.close();
    }
  });

  test('a held lock is refused to others until lock_until, then taken over', async (context) => {
    const t = await createTestApp(context, );
    try {
      const a = lockFor(t, 'a');
      const b = lockFor(t, 'b');
      assert.ok(await a.tryAcquire());
      assert.equal(await b.tryAcquire(), undefined);
      assert.equal(await a.tryAcquire(), undefined, 'not re-entrant either');
      t.clock.advance(14 * MINUTE - 1);
      assert.equal(await b.tryAcquire(), undefined);
      t.clock.advance(1);
      assert.ok(await b.tryAcquire(), 'a holder that never released loses the lock after lockAtMost');
      assert.equal((await lockRow(t))!.locked_by, 'b');
    } finally {
      await t.close();
    }
  });

  test('release keeps the lock until locked_at + lockAtLeast, or frees it now when that has passed', async (context) => {
    const t = await createTestApp(context, );
    try {
      const a = lockFor(t, 'a');
      const b = lockFor(t, 'b');
      const start = t.clock.now();
      const first = await a.tryAcquire();
      t.clock.advance(MINUTE);
      assert.equal(await first!.release(), true);
      assert.equal((await lockRow(t))!.lock_until, start + 10 * MINUTE);
      t.clock.set(start + 10 * MINUTE - 1);
      assert.equal(await b.tryAcquire(), undefined);
      t.clock.set(start + 10 * MINUTE);
      const second = await b.tryAcquire();
      assert.ok(second);
      t.clock.advance(12 * MINUTE);
      await second.release();
      assert.equal((await lockRow(t))!.lock_until, t.clock.now());
      assert.ok(await a.tryAcquire());
    } finally {
      await t.close();
    }
  });

  test('a held lock is refused at once, without waiting for the database write lock another writer holds', async (context) => {
    const t = await createTestApp(context, );
    const writer = new SQLite(path.join(t.dataDir, 'linkforge.db'));
    try {
      assert.ok(await lockFor(t, 'a').tryAcquire());
      writer.exec('begin immediate'); // e.g. the holder's batch transaction, from another process
      const started = performance.now();
      assert.equal(await lockFor(t, 'b').tryAcquire(), undefined);
      assert.ok(performance.now() - started < 1000, 'better-sqlite3 would block the event loop for busy_timeout (5 s)');
    } finally {
      writer.exec('rollback');
      writer.close();
      await t.close();
    }
  });
});

describe('two app instances on one database file', () => {
  test('racing cleanup runs are never inside at the same time', async (context) => {
    // lockAtLeast keeps a finished run's lock for the rest of its round: without it, an instance
    // whose writes queue behind the winner's may rightly find the lock released and run after it.
    const env = { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '2', CLEANUP_RETENTION: '1d', CLEANUP_LOCK_AT_LEAST: '1m' };
    const a = await createTestApp(context, env);
    const b = await createSecondInstance(context, a, env);
    try {
      await expiredLinks(a.deps, 9, 2 * DAY);
      let inside = 0;
      let most = 0;
      const wins = new Map<string, number>();
      for (const cleanup of [a.deps.cleanup, b.deps.cleanup]) {
        observeCleanup(cleanup, {
          runStarted: ({ instance }) => {
            inside += 1;
            most = Math.max(most, inside);
            wins.set(instance, (wins.get(instance) ?? 0) + 1);
          },
          // A real wait inside every batch gives the other instance time to try.
          beforeBatch: () => new Promise((resolve) => setTimeout(resolve, 2)),
          runFinished: () => { inside -= 1; },
        });
      }
      for (let round = 0; round < 15; round++) {
        const [first, second] = round % 2 === 0
          ? [a.deps.cleanup.job, b.deps.cleanup.job]
          : [b.deps.cleanup.job, a.deps.cleanup.job];
        const outcomes = await Promise.all([first.run(), second.run()]);
        assert.deepEqual(outcomes.map((o) => o.outcome).sort(), ['locked', 'ran'], `round ${round}`);
        a.clock.advance(60_001);
      }
      assert.equal(most, 1);
      // Which instance wins a round is the scheduler's call (on PostgreSQL one pool can win all 15);
      // that they met is proven by every round's 'locked' loser, and `most` proves they never overlapped.
      assert.equal([...wins.values()].reduce((sum, n) => sum + n, 0), 15, 'one run per round');
      assert.deepEqual(await linkIds(a.deps), []);
      const runs = await runRows(a.deps);
      assert.equal(runs.length, 15);
      assert.equal(runs.reduce((sum, r) => sum + Number(r.purged), 0), 9, 'every link purged exactly once');
    } finally {
      await b.close();
      await a.close();
    }
  });

  test('a holder that died keeps the lock until lockAtMost; then the other instance runs and fails the dead run', async (context) => {
    const env = { ...QUICK_CLEANUP, CLEANUP_LOCK_AT_MOST: '14m', CLEANUP_RETENTION: '1d' };
    const a = await createTestApp(context, env);
    const b = await createSecondInstance(context, a, env);
    try {
      await expiredLinks(a.deps, 3, 2 * DAY);
      // Instance a "crashes" mid-run: it took the lock and recorded a running run, then vanished.
      const held = await a.deps.cleanup.lock.tryAcquire();
      assert.ok(held);
      await a.deps.database.db.insertInto('cleanup_runs').values({
        instance: a.deps.cleanup.job.instance, started_at: a.clock.now(), finished_at: null, status: 'running',
        marked_expired: 0, purged: 0, archived: 0, batches: 0, last_batch_size: 0, duration_ms: null, error: null,
      }).execute();

      const refused = await b.deps.cleanup.job.run();
      assert.equal(refused.outcome, 'locked');
      assert.equal(refused.outcome === 'locked' && refused.holder?.lockedBy, a.deps.cleanup.job.instance);
      a.clock.advance(14 * MINUTE - 1);
      assert.equal((await b.deps.cleanup.job.run()).outcome, 'locked');
      a.clock.advance(1);

      const run = ran(await b.deps.cleanup.job.run());

      assert.equal(run.purged, 3);
      const [dead, finished] = await runRows(a.deps);
      assert.equal(dead!.status, 'failed');
      assert.match(dead!.error ?? '', /abandoned/);
      assert.equal(finished!.status, 'succeeded');
      assert.equal(finished!.instance, b.deps.cleanup.job.instance);
      const lock = await a.deps.database.db.selectFrom('shedlock').selectAll().where('name', '=', CLEANUP_LOCK_NAME).executeTakeFirstOrThrow();
      assert.equal(lock.locked_by, b.deps.cleanup.job.instance);
      assert.ok(lock.lock_until <= a.clock.now(), 'released by b');
    } finally {
      await b.close();
      await a.close();
    }
  });
});
