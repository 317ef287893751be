import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../support/test-app.js';
import { observeCleanup, type BatchEvent } from '../support/cleanup-observer.js';
import { DAY, expiredLinks, HOUR, linkIds, QUICK_CLEANUP, ran, runRows } from '../support/cleanup-fixtures.js';

describe('batches', () => {
  test('every phase works in batches of CLEANUP_BATCH_SIZE', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '3', CLEANUP_RETENTION: '1d' });
    try {
      await expiredLinks(t.deps, 7, 2 * DAY);
      const events: string[] = [];
      observeCleanup(t.deps.cleanup, {
        beforeCommit: ({ phase, batch, rows }) => { events.push(`${phase}${batch}:${rows}`); },
      });
      const run = ran(await t.deps.cleanup.job.run());

      assert.deepEqual(events, ['mark1:3', 'mark2:3', 'mark3:1', 'purge1:3', 'purge2:3', 'purge3:1', 'visits1:0', 'facts1:0', 'rollups1:0']);
      assert.equal(run.batches, 6);
      assert.equal(run.lastBatchSize, 1);
      assert.equal(run.markedExpired, 7);
      assert.equal(run.purged, 7);
    } finally {
      await t.close();
    }
  });

  test('a phase whose rows fill the last batch exactly ends with one empty batch, which is not counted', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '3', CLEANUP_RETENTION: '1d' });
    try {
      await expiredLinks(t.deps, 6, HOUR);
      const events: string[] = [];
      observeCleanup(t.deps.cleanup, { beforeBatch: ({ phase, batch }: BatchEvent) => { events.push(`${phase}${batch}`); } });
      const run = ran(await t.deps.cleanup.job.run());
      assert.deepEqual(events, ['mark1', 'mark2', 'mark3', 'purge1', 'visits1', 'facts1', 'rollups1']);
      assert.equal(run.batches, 2);
      assert.equal(run.lastBatchSize, 3);
      assert.equal((await runRows(t.deps))[0]!.batches, 2);
    } finally {
      await t.close();
    }
  });

  test('CLEANUP_BATCH_PAUSE separates batches', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '1', CLEANUP_BATCH_PAUSE: '40ms', CLEANUP_RETENTION: '1d' });
    try {
      await expiredLinks(t.deps, 2, 2 * DAY);
      const started = performance.now();
      const run = ran(await t.deps.cleanup.job.run());
      const elapsed = performance.now() - started;
      // mark: 1, pause, 1, pause, empty; purge: 1, pause, 1, pause, empty.
      assert.equal(run.purged, 2);
      assert.ok(elapsed >= 4 * 40 - 5, `took ${elapsed} ms`);
    } finally {
      await t.close();
    }
  });

  test('CLEANUP_MAX_DURATION stops the run after the batch in progress, leaving the rest for the next run', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '2', CLEANUP_MAX_DURATION: '10ms', CLEANUP_RETENTION: '1d' });
    try {
      await expiredLinks(t.deps, 6, 2 * DAY);
      observeCleanup(t.deps.cleanup, { beforeBatch: () => t.clock.advance(6) });

      const first = ran(await t.deps.cleanup.job.run());
      assert.equal(first.status, 'succeeded');
      assert.equal(first.stoppedEarly, 'time_limit');
      assert.equal(first.markedExpired, 4);
      assert.equal(first.purged, 0, 'the purge waits for a run that finishes marking');

      observeCleanup(t.deps.cleanup, {});
      const second = ran(await t.deps.cleanup.job.run());
      assert.equal(second.stoppedEarly, null);
      assert.equal(second.markedExpired, 2);
      assert.equal(second.purged, 6);
      assert.deepEqual(await linkIds(t.deps), []);
    } finally {
      await t.close();
    }
  });
  test('a time limit reached during the last mark batch skips the purge', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '10', CLEANUP_MAX_DURATION: '10ms', CLEANUP_RETENTION: '1d' });
    try {
      await expiredLinks(t.deps, 3, 2 * DAY);
      observeCleanup(t.deps.cleanup, { beforeBatch: () => t.clock.advance(20) });
      const run = ran(await t.deps.cleanup.job.run());
      assert.equal(run.stoppedEarly, 'time_limit');
      assert.equal(run.markedExpired, 3);
      assert.equal(run.purged, 0);
    } finally {
      await t.close();
    }
  });

  test('a run also stops at CLEANUP_LOCK_AT_MOST, when its lock would expire, even with a longer CLEANUP_MAX_DURATION', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '1', CLEANUP_MAX_DURATION: '1h', CLEANUP_LOCK_AT_MOST: '10ms', CLEANUP_RETENTION: '1d' });
    try {
      await expiredLinks(t.deps, 3, 2 * DAY);
      observeCleanup(t.deps.cleanup, { beforeBatch: () => t.clock.advance(6) });
      const run = ran(await t.deps.cleanup.job.run());
      assert.equal(run.stoppedEarly, 'time_limit');
      assert.equal(run.markedExpired, 2);
    } finally {
      await t.close();
    }
  });
});
