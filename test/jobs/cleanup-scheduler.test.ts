import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { createTestApp } from '../support/test-app.js';
import { startServer } from '../support/server-process.js';
import type { CleanupJobs } from '../../src/jobs/cleanup-jobs.js';
import { DAY, eventually, expiredLinks, HOUR, linkIds, QUICK_CLEANUP, runRows } from '../support/cleanup-fixtures.js';
import { observeCleanup } from '../support/cleanup-observer.js';

/** The real timer, taken before a test mocks `setTimeout`: runs do real I/O, waited for in real time. */
const realSetTimeout = globalThis.setTimeout;

/**
 * The scheduler measures the interval from the start of the previous run in real time (the run's
 * own duration is not mocked), so a tick that must stop short of the next run leaves it five
 * seconds: a run on a loaded machine can take longer than a short interval, not than that. The
 * ticks after it are small, because PostgreSQL's connection timeout runs on the mocked timers too.
 */
const RUN_MARGIN_MS = 5_000;

/** Counts the job's runs as its run store sees them start and finish; `failFirstPurge` makes the first purge batch throw. */
function countRuns(cleanup: CleanupJobs, options: { failFirstPurge?: boolean } = {}) {
  const counts = { started: 0, finished: 0, failures: 0 };
  observeCleanup(cleanup, {
    runStarted: () => { counts.started += 1; },
    runFinished: () => { counts.finished += 1; },
    beforeCommit: ({ phase }) => {
      if (options.failFirstPurge && phase === 'purge' && counts.failures === 0) {
        counts.failures += 1;
        throw new Error('first run fails');
      }
    },
  });
  return counts;
}

/**
 * Moves the mocked clock on by `stepMs` every couple of real milliseconds until `done()`: the
 * schedule's timers are mocked, the runs' database work is real.
 */
async function tickUntil(ctx: TestContext, stepMs: number, done: () => boolean, what: string): Promise<void> {
  const giveUpAt = performance.now() + 10_000;
  while (!done()) {
    if (performance.now() > giveUpAt) throw new Error(`timed out waiting for ${what}`);
    ctx.mock.timers.tick(stepMs);
    await new Promise((resolve) => realSetTimeout(resolve, 2));
  }
}

/** Waits (in real time) until the run that just finished has released its lock, so the schedule holds its next timer. */
async function settled(cleanup: CleanupJobs): Promise<void> {
  while (await cleanup.lock.findHolder()) await new Promise((resolve) => realSetTimeout(resolve, 2));
  await new Promise((resolve) => realSetTimeout(resolve, 2));
}

describe('the cleanup scheduler (mocked timers)', () => {
  test('fires again and again with 1 ms intervals', async (ctx) => {
    const t = await createTestApp(ctx, { ...QUICK_CLEANUP, CLEANUP_INITIAL_DELAY: '1ms', CLEANUP_INTERVAL: '1ms', CLEANUP_RETENTION: '1d', CLEANUP_BATCH_SIZE: '2' });
    try {
      await expiredLinks(t.deps, 5, 2 * DAY);
      const runs = countRuns(t.deps.cleanup);
      ctx.mock.timers.enable({ apis: ['setTimeout'] });
      t.deps.cleanup.scheduler.start();
      await tickUntil(ctx, 1, () => runs.finished >= 3, 'three runs');
      await t.deps.cleanup.scheduler.stop();
      const rows = await runRows(t.deps);
      assert.ok(rows.every((r) => r.status === 'succeeded'));
      assert.deepEqual(await linkIds(t.deps), []);
      assert.equal(rows.reduce((sum, r) => sum + Number(r.purged), 0), 5);
    } finally {
      ctx.mock.timers.reset();
      await t.close();
    }
  });

  test('waits CLEANUP_INITIAL_DELAY before the first run, then CLEANUP_INTERVAL before the next', async (ctx) => {
    const t = await createTestApp(ctx, { ...QUICK_CLEANUP, CLEANUP_INITIAL_DELAY: '300ms', CLEANUP_INTERVAL: '1h' });
    try {
      const runs = countRuns(t.deps.cleanup);
      ctx.mock.timers.enable({ apis: ['setTimeout'] });
      t.deps.cleanup.scheduler.start();
      ctx.mock.timers.tick(299);
      await settled(t.deps.cleanup);
      assert.equal(runs.started, 0);
      await tickUntil(ctx, 1, () => runs.finished === 1, 'the first run');
      await settled(t.deps.cleanup);
      ctx.mock.timers.tick(HOUR - RUN_MARGIN_MS);
      await settled(t.deps.cleanup);
      assert.equal(runs.started, 1, 'the next run waits an interval');
      assert.equal((await runRows(t.deps)).length, 1);
      await tickUntil(ctx, 10, () => runs.finished === 2, 'the second run');
      await t.deps.cleanup.scheduler.stop();
    } finally {
      ctx.mock.timers.reset();
      await t.close();
    }
  });

  test('retries at the next interval after a failed run', async (ctx) => {
    const t = await createTestApp(ctx, { ...QUICK_CLEANUP, CLEANUP_INITIAL_DELAY: '0', CLEANUP_INTERVAL: '1h', CLEANUP_RETENTION: '1d' });
    try {
      await expiredLinks(t.deps, 3, 2 * DAY);
      const runs = countRuns(t.deps.cleanup, { failFirstPurge: true });
      ctx.mock.timers.enable({ apis: ['setTimeout'] });
      t.deps.cleanup.scheduler.start();
      await tickUntil(ctx, 1, () => runs.finished === 1, 'the failed run');
      await settled(t.deps.cleanup);
      ctx.mock.timers.tick(HOUR - RUN_MARGIN_MS);
      await settled(t.deps.cleanup);
      assert.equal(runs.started, 1, 'the retry waits for the next interval');
      await tickUntil(ctx, 10, () => runs.finished === 2, 'a successful retry');
      await t.deps.cleanup.scheduler.stop();
      const rows = await runRows(t.deps);
      assert.equal(rows[0]!.status, 'failed');
      assert.equal(rows[1]!.status, 'succeeded');
      assert.equal(rows[1]!.purged, 3);
      assert.deepEqual(await linkIds(t.deps), []);
    } finally {
      ctx.mock.timers.reset();
      await t.close();
    }
  });

  test('stop() ends the schedule', async (ctx) => {
    const t = await createTestApp(ctx, { ...QUICK_CLEANUP, CLEANUP_INITIAL_DELAY: '1ms', CLEANUP_INTERVAL: '1ms' });
    try {
      const runs = countRuns(t.deps.cleanup);
      ctx.mock.timers.enable({ apis: ['setTimeout'] });
      t.deps.cleanup.scheduler.start();
      await tickUntil(ctx, 1, () => runs.finished >= 1, 'a run');
      await t.deps.cleanup.scheduler.stop();
      const count = (await runRows(t.deps)).length;
      ctx.mock.timers.tick(HOUR);
      await settled(t.deps.cleanup);
      assert.equal((await runRows(t.deps)).length, count);
      assert.equal(runs.started, count);
      assert.equal(t.deps.cleanup.scheduler.isStarted, false);
    } finally {
      ctx.mock.timers.reset();
      await t.close();
    }
  });
});

describe('the server process', () => {
  function insertExpired(db: SQLite.Database, count: number): void {
    const insert = db.prepare(`insert into links (domain, code, original_url, normalized_url, link_type, status, created_at, updated_at, expires_at)
      values ('localhost', ?, 'https://example.com/', 'https://example.com/', 'TEMPORARY', 'ACTIVE', ?, ?, ?)`);
    const old = Date.now() - 3 * DAY;
    for (let i = 0; i < count; i++) insert.run(`gone${i}`, old, old, old + 1000);
  }

  test('starts the scheduler when CLEANUP_ENABLED, and on SIGTERM records the run and releases the lock', async (context) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-cleanup-e2e-'));
    const file = path.join(dir, 'linkforge.db');
    try {
      const server = await startServer(context, {
        DATABASE_URL: `sqlite:${file}`, CLEANUP_ENABLED: 'true', CLEANUP_INITIAL_DELAY: '1ms', CLEANUP_INTERVAL: '1ms',
        CLEANUP_LOCK_AT_LEAST: '0', CLEANUP_BATCH_PAUSE: '0', CLEANUP_RETENTION: '1d',
      });
      const db = new SQLite(file);
      try {
        db.pragma('busy_timeout = 5000');
        insertExpired(db, 5);
        await eventually(() => (db.prepare('select count(*) as n from links').get() as { n: number }).n === 0, 10_000, 'the purge');
        assert.equal(await server.stop(), 0);
        const running = db.prepare("select count(*) as n from cleanup_runs where status <> 'succeeded'").get() as { n: number };
        assert.equal(running.n, 0, 'every run finished and was recorded before exit');
        const lock = db.prepare('select lock_until from shedlock').get() as { lock_until: number };
        assert.ok(lock.lock_until <= Date.now(), 'the lock was released');
      } finally {
        db.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('does not run the cleanup job when CLEANUP_ENABLED is false', async (context) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-cleanup-e2e-'));
    const file = path.join(dir, 'linkforge.db');
    try {
      const server = await startServer(context, { DATABASE_URL: `sqlite:${file}`, CLEANUP_ENABLED: 'false', CLEANUP_INITIAL_DELAY: '1ms', CLEANUP_INTERVAL: '1ms' });
      await sleep(300);
      assert.equal(await server.stop(), 0);
      const db = new SQLite(file, { readonly: true });
      try {
        assert.equal((db.prepare('select count(*) as n from cleanup_runs').get() as { n: number }).n, 0);
      } finally {
        db.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
