import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { createTestApp } from '../support/test-app.js';
import { startServer } from '../support/server-process.js';
import { DAY, eventually, expiredLinks, linkIds, QUICK_REAPER, runRows } from '../support/reaper-fixtures.js';

describe('the reaper scheduler', () => {
  test('fires again and again with 1 ms intervals', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_INITIAL_DELAY: '1ms', CLEANUP_INTERVAL: '1ms', CLEANUP_RETENTION: '1d', CLEANUP_BATCH_SIZE: '2' });
    try {
      await expiredLinks(t.deps, 5, 2 * DAY);
      t.deps.cleanup.scheduler.start();
      await eventually(async () => (await runRows(t.deps)).length >= 3, 5000, 'three runs');
      await t.deps.cleanup.scheduler.stop();
      const runs = await runRows(t.deps);
      assert.ok(runs.every((r) => r.status === 'succeeded'));
      assert.deepEqual(await linkIds(t.deps), []);
      assert.equal(runs.reduce((sum, r) => sum + Number(r.purged), 0), 5);
    } finally {
      await t.close();
    }
  });

  test('waits CLEANUP_INITIAL_DELAY before the first run', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_INITIAL_DELAY: '300ms', CLEANUP_INTERVAL: '1h' });
    try {
      t.deps.cleanup.scheduler.start();
      await sleep(100);
      assert.equal((await runRows(t.deps)).length, 0);
      await eventually(async () => (await runRows(t.deps)).length === 1, 3000, 'the first run');
      await sleep(100);
      assert.equal((await runRows(t.deps)).length, 1, 'the next run waits an interval');
    } finally {
      await t.close();
    }
  });

  test('retries at the next interval after a failed run', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_INITIAL_DELAY: '0', CLEANUP_INTERVAL: '20ms', CLEANUP_RETENTION: '1d' });
    try {
      await expiredLinks(t.deps, 3, 2 * DAY);
      let failures = 0;
      t.deps.cleanup.reaper.hooks = {
        beforeCommit: ({ phase }) => {
          if (phase === 'purge' && failures === 0) {
            failures += 1;
            throw new Error('first run fails');
          }
        },
      };
      t.deps.cleanup.scheduler.start();
      await eventually(async () => (await runRows(t.deps)).some((r) => r.status === 'succeeded'), 5000, 'a successful retry');
      await t.deps.cleanup.scheduler.stop();
      const runs = await runRows(t.deps);
      assert.equal(runs[0]!.status, 'failed');
      assert.equal(runs[1]!.status, 'succeeded');
      assert.equal(runs[1]!.purged, 3);
      assert.deepEqual(await linkIds(t.deps), []);
    } finally {
      await t.close();
    }
  });

  test('stop() ends the schedule', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_INITIAL_DELAY: '1ms', CLEANUP_INTERVAL: '1ms' });
    try {
      t.deps.cleanup.scheduler.start();
      await eventually(async () => (await runRows(t.deps)).length >= 1, 5000, 'a run');
      await t.deps.cleanup.scheduler.stop();
      const count = (await runRows(t.deps)).length;
      await sleep(50);
      assert.equal((await runRows(t.deps)).length, count);
      assert.equal(t.deps.cleanup.scheduler.isStarted, false);
    } finally {
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
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-reaper-e2e-'));
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

  test('does not run the reaper when CLEANUP_ENABLED is false', async (context) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-reaper-e2e-'));
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
