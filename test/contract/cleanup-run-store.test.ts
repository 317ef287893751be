import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FinishedCleanupRun } from '../../src/core/cleanup-ports.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { LATE_TIME } from '../support/contract-fixtures.js';

const T = LATE_TIME;

function finished(overrides: Partial<FinishedCleanupRun> = {}): FinishedCleanupRun {
  return {
    status: 'succeeded', finishedAt: T + 1_000, durationMs: 1_000, error: null,
    markedExpired: 0, purged: 0, archived: 0, visitsDeleted: 0, factsDeleted: 0, rollupsDeleted: 0, webhookDeliveriesDeleted: 0, batches: 1, lastBatchSize: 0, ...overrides,
  };
}

for (const backend of STORE_BACKENDS) {
  describe(`CleanupRunStore on ${backend.name}`, () => {
    const stores = storesFor(backend);
    // The summary covers the whole table: each test starts from an empty one.
    beforeEach(() => stores.database.db.deleteFrom('cleanup_runs').execute());

    test('recent runs come newest first, running ones included, at most the limit', async () => {
      const first = await stores.cleanupRuns.startRun('a', T);
      await stores.cleanupRuns.finishRun(first, finished({ purged: 3, error: null }));
      const second = await stores.cleanupRuns.startRun('b', T + 5_000);
      const runs = await stores.cleanupRuns.listRecentRuns(10);
      assert.deepEqual(runs.map((run) => [run.id, run.instance, run.status, run.finishedAt, run.purged]), [
        [second, 'b', 'running', null, 0],
        [first, 'a', 'succeeded', T + 1_000, 3],
      ]);
      assert.deepEqual((await stores.cleanupRuns.listRecentRuns(1)).map((run) => run.id), [second]);
    });

    test('with no runs the summary is all zeros, no average and no last run', async () => {
      assert.deepEqual(await stores.cleanupRuns.summarize(), {
        successfulRuns: 0, failedRuns: 0, totalPurged: 0, totalMarkedExpired: 0, totalArchived: 0, totalVisitsDeleted: 0,
        averageDurationMs: null, lastFinished: undefined,
      });
    });

    test('a started run is running for its instance from its start on, and no longer once finished', async () => {
      const id = await stores.cleanupRuns.startRun('a', T);
      assert.equal(typeof id, 'number');
      assert.equal(await stores.cleanupRuns.hasRunningRun('a', T), true);
      assert.equal(await stores.cleanupRuns.hasRunningRun('a', T + 1), false, 'started before `since`');
      assert.equal(await stores.cleanupRuns.hasRunningRun('b', T), false, 'another instance');
      await stores.cleanupRuns.finishRun(id, finished());
      assert.equal(await stores.cleanupRuns.hasRunningRun('a', T), false);
    });

    test('the summary counts runs by outcome, sums totals beyond 2^32 exactly and averages successful durations', async () => {
      const big = 2 ** 33 + 1;
      const first = await stores.cleanupRuns.startRun('a', T);
      await stores.cleanupRuns.finishRun(first, finished({ purged: big, markedExpired: 5, archived: big, visitsDeleted: big, durationMs: 1_000 }));
      const second = await stores.cleanupRuns.startRun('b', T + 10_000);
      await stores.cleanupRuns.finishRun(second, finished({ purged: big, markedExpired: 7, archived: 1, durationMs: 2_001, finishedAt: T + 12_001, lastBatchSize: 42 }));
      const failed = await stores.cleanupRuns.startRun('a', T + 5_000);
      await stores.cleanupRuns.finishRun(failed, finished({ status: 'failed', error: 'boom', purged: 3, visitsDeleted: 4, durationMs: 99_999, finishedAt: T + 50_000 }));
      await stores.cleanupRuns.startRun('c', T + 20_000);
      assert.deepEqual(await stores.cleanupRuns.summarize(), {
        successfulRuns: 2, failedRuns: 1, totalPurged: 2 * big + 3, totalMarkedExpired: 12, totalArchived: big + 1, totalVisitsDeleted: big + 4,
        averageDurationMs: 1_500.5,
        lastFinished: { finishedAt: T + 12_001, lastBatchSize: 42 },
      });
    });

    test('abandoned runs, started at or before the cutoff and still running, are failed; the others are left', async () => {
      const old = await stores.cleanupRuns.startRun('dead', T);
      const atCutoff = await stores.cleanupRuns.startRun('dead', T + 100);
      await stores.cleanupRuns.startRun('alive', T + 101);
      const done = await stores.cleanupRuns.startRun('done', T - 5);
      await stores.cleanupRuns.finishRun(done, finished({ finishedAt: T - 1 }));
      assert.ok(old < atCutoff);

      assert.equal(await stores.cleanupRuns.failAbandonedRuns(T + 100, T + 200, 'abandoned'), 2);
      assert.equal(await stores.cleanupRuns.hasRunningRun('dead', T), false);
      assert.equal(await stores.cleanupRuns.hasRunningRun('alive', T), true);
      const summary = await stores.cleanupRuns.summarize();
      assert.equal(summary.failedRuns, 2);
      assert.equal(summary.successfulRuns, 1);
      assert.deepEqual(summary.lastFinished, { finishedAt: T + 200, lastBatchSize: 0 }, 'the latest started of the finished runs');
      assert.equal(await stores.cleanupRuns.failAbandonedRuns(T + 100, T + 300, 'abandoned'), 0);
    });
  });
}
