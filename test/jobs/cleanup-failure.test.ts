import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { StoreUnavailableError } from '../../src/core/errors.js';
import { CLEANUP_LOCK_NAME } from '../../src/jobs/cleanup-jobs.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';
import {
  archiveRows, cachedStatus, DAY, eventually, expiredLinks, gate, HOUR, linkIds, linkInState, QUICK_CLEANUP, ran, runRows, statusOf,
} from '../support/cleanup-fixtures.js';
import { observeCleanup } from '../support/cleanup-observer.js';

const lockRow = (t: TestApp) =>
  t.deps.database.db.selectFrom('shedlock').selectAll().where('name', '=', CLEANUP_LOCK_NAME).executeTakeFirstOrThrow();

describe('a failing run', () => {
  test('keeps its committed batches, rolls the failing batch back entirely, is recorded failed, frees the lock; the next run finishes', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '3', CLEANUP_RETENTION: '1d', CLEANUP_ARCHIVE: 'true' });
    try {
      const doomed = await expiredLinks(t.deps, 9, 2 * DAY);
      const live = await linkInState(t.deps, { expiresAt: t.clock.now() + HOUR });
      const recent = await expiredLinks(t.deps, 2, HOUR);
      // Thrown inside the transaction, after the batch's DELETE and archive INSERT ran.
      observeCleanup(t.deps.cleanup, {
        beforeCommit: ({ phase, batch }) => {
          if (phase === 'purge' && batch === 2) throw new Error('injected failure in purge batch 2');
        },
      });

      const failed = ran(await t.deps.cleanup.job.run());

      assert.equal(failed.status, 'failed');
      assert.match(failed.error ?? '', /injected failure in purge batch 2/);
      assert.equal(failed.purged, 3);
      const remaining = await linkIds(t.deps);
      assert.equal(remaining.length, 1 + 2 + 6, 'batch 1 deleted, batch 2 rolled back');
      assert.equal((await archiveRows(t.deps)).length, 3, 'the rolled-back batch left no archive copy');
      const [row] = await runRows(t.deps);
      assert.equal(row!.status, 'failed');
      assert.match(row!.error ?? '', /injected failure/);
      assert.equal(row!.marked_expired, 11);
      assert.equal(row!.purged, 3);
      assert.equal(row!.archived, 3);
      assert.ok(row!.finished_at !== null && row!.duration_ms !== null);
      assert.ok((await lockRow(t)).lock_until <= t.clock.now(), 'the lock is released');

      observeCleanup(t.deps.cleanup, {});
      const retried = ran(await t.deps.cleanup.job.run());

      assert.equal(retried.status, 'succeeded');
      assert.equal(retried.purged, 6);
      assert.deepEqual(await linkIds(t.deps), [live.id, ...recent].sort((x, y) => x - y));
      const archived = (await archiveRows(t.deps)).map((r) => Number(r.id));
      assert.deepEqual(archived, [...doomed].sort((x, y) => x - y), 'every purged link archived exactly once');
      assert.equal(await statusOf(t.deps, live.id), 'ACTIVE');
    } finally {
      await t.close();
    }
  });

  test('a mark batch that fails leaves its links ACTIVE and their cache entries live', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '2', CACHE_TTL: '1d', CACHE_LOCAL_TTL: '1d' });
    try {
      const ids = await expiredLinks(t.deps, 4, HOUR);
      t.clock.advance(-2 * HOUR);
      const codes: string[] = [];
      for (const id of ids) {
        const row = await t.deps.database.db.selectFrom('links').select('code').where('id', '=', id).executeTakeFirstOrThrow();
        codes.push(row.code);
        assert.equal((await t.app.inject({ url: `/${row.code}` })).statusCode, 302); // cached while live
      }
      t.clock.advance(2 * HOUR);
      observeCleanup(t.deps.cleanup, {
        beforeCommit: ({ phase, batch }) => {
          if (phase === 'mark' && batch === 2) throw new Error('disk on fire');
        },
      });

      const failed = ran(await t.deps.cleanup.job.run());

      assert.equal(failed.status, 'failed');
      assert.equal(failed.markedExpired, 2);
      const statuses = await Promise.all(ids.map((id) => statusOf(t.deps, id)));
      assert.equal(statuses.filter((s) => s === 'EXPIRED').length, 2);
      assert.equal(statuses.filter((s) => s === 'ACTIVE').length, 2);
      for (const [i, code] of codes.entries()) {
        assert.equal(cachedStatus(t.deps, code), statuses[i], 'tombstones only for committed marks');
      }
    } finally {
      await t.close();
    }
  });

  test('a failing hook before any batch still records the run and releases the lock', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP });
    try {
      observeCleanup(t.deps.cleanup, { beforeBatch: () => { throw new Error('boom'); } });
      const failed = ran(await t.deps.cleanup.job.run());
      assert.equal(failed.status, 'failed');
      assert.equal((await runRows(t.deps))[0]!.status, 'failed');
      observeCleanup(t.deps.cleanup, {});
      assert.equal(ran(await t.deps.cleanup.job.run()).status, 'succeeded');
    } finally {
      await t.close();
    }
  });
});

describe('an unreachable database', () => {
  test('run() rejects with store_unavailable, POST run answers 503, and the scheduler keeps retrying', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, ADMIN_EMAILS: 'admin@example.com', CLEANUP_INITIAL_DELAY: '1ms', CLEANUP_INTERVAL: '1ms' });
    try {
      const { token } = await registerUser(t.app, 'admin@example.com');
      await t.deps.database.close();

      await assert.rejects(t.deps.cleanup.job.run(), (error: Error) => error instanceof StoreUnavailableError);
      const response = await t.app.inject({ method: 'POST', url: '/api/admin/cleanup/run', headers: bearer(token) });
      // The admin check itself reads the database, so either layer may be the one to answer 503.
      assert.equal(response.statusCode, 503);

      const errors: string[] = [];
      t.deps.cleanup.scheduler.start({ info: () => {}, error: (_details, message) => { errors.push(message); } });
      await eventually(() => errors.length >= 3, 5000, 'three failed attempts');
      await t.deps.cleanup.scheduler.stop();
      assert.match(errors[0]!, /could not take its lock/);
    } finally {
      await t.app.close();
      await t.deps.cleanup.stop();
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});

describe('shutdown', () => {
  test('close() lets the batch in progress finish, records the run and releases the lock before the database closes', async (context) => {
    // The run is read back from the SQLite file after the database closed: this one is SQLite's.
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '2', CLEANUP_RETENTION: '1d' }, { database: 'sqlite' });
    const dbFile = path.join(t.dataDir, 'linkforge.db');
    try {
      const ids = await expiredLinks(t.deps, 6, HOUR);
      const held = gate();
      const entered = gate();
      observeCleanup(t.deps.cleanup, {
        beforeCommit: async ({ phase, batch }) => {
          if (phase === 'mark' && batch === 2) {
            entered.open();
            await held.opened;
          }
        },
      });
      const running = t.deps.cleanup.job.run();
      await entered.opened;

      let closed = false;
      const closing = (async () => {
        await t.app.close();
        await t.deps.close();
        closed = true;
      })();
      await new Promise((resolve) => setTimeout(resolve, 30));
      assert.equal(closed, false, 'close waits for the batch in progress');
      assert.equal((await t.deps.cleanup.job.run()).outcome, 'stopping', 'no new run once shutdown began');
      held.open();
      await closing;
      const result = ran(await running);

      assert.equal(result.status, 'succeeded');
      assert.equal(result.stoppedEarly, 'shutdown');
      assert.equal(result.markedExpired, 4, 'batch 2 committed, batch 3 never started');
      const db = new SQLite(dbFile, { readonly: true });
      try {
        const run = db.prepare('select * from cleanup_runs').all() as Array<Record<string, unknown>>;
        assert.equal(run.length, 1);
        assert.equal(run[0]!.status, 'succeeded');
        assert.equal(run[0]!.marked_expired, 4);
        assert.notEqual(run[0]!.finished_at, null);
        const lock = db.prepare('select * from shedlock where name = ?').get(CLEANUP_LOCK_NAME) as { lock_until: number };
        assert.ok(lock.lock_until <= t.clock.now(), 'lock released');
        const statuses = ids.map((id) => (db.prepare('select status from links where id = ?').get(id) as { status: string }).status);
        assert.deepEqual(statuses.filter((s) => s === 'EXPIRED').length, 4);
      } finally {
        db.close();
      }
    } finally {
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
