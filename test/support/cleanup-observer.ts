import type { CleanupRunStore, CleanupStore } from '../../src/core/cleanup-ports.js';
import type { CleanupJobs } from '../../src/jobs/cleanup-jobs.js';

/** The cleanup run's steps, in order, as its store calls show them. */
export type BatchPhase = 'mark' | 'purge' | 'visits' | 'facts' | 'rollups';

export interface BatchEvent {
  readonly instance: string;
  readonly phase: BatchPhase;
  /** 1-based within the phase and run, counting the last batch that finds nothing. */
  readonly batch: number;
}

/**
 * What a test watches of a cleanup run. Every callback may be async; one that throws fails the
 * call it wraps the way a database error would. `beforeCommit` runs inside the batch's
 * transaction, after its writes (the store's own `beforeCommit`), so a throw there proves the
 * whole batch rolls back.
 */
export interface CleanupObserver {
  runStarted?(event: { readonly instance: string; readonly runId: number }): void | Promise<void>;
  beforeBatch?(event: BatchEvent): void | Promise<void>;
  beforeCommit?(event: BatchEvent & { readonly rows: number }): void | Promise<void>;
  /** After the run is recorded, before its lock is released. */
  runFinished?(event: { readonly instance: string; readonly runId: number }): void | Promise<void>;
}

const BATCHES = {
  markExpiredBatch: 'mark',
  purgeBatch: 'purge',
  deleteVisitsBatch: 'visits',
  deleteUnusedFactsBatch: 'facts',
  deleteRollupsBatch: 'rollups',
} as const satisfies Partial<Record<keyof CleanupStore, BatchPhase>>;

interface Watch {
  observer: CleanupObserver;
  batches: Map<BatchPhase, number>;
}

const watches = new WeakMap<CleanupJobs, Watch>();

/**
 * Watches the cleanup job of an app through test doubles at its two ports: the real store and
 * run store, their methods wrapped in place, so the job and the database do exactly what they do
 * in production. Observing again replaces the observer; `{}` stops watching.
 */
export function observeCleanup(cleanup: CleanupJobs, observer: CleanupObserver): void {
  const known = watches.get(cleanup);
  if (known) {
    known.observer = observer;
    return;
  }
  const watch: Watch = { observer, batches: new Map() };
  watches.set(cleanup, watch);
  wrapRuns(cleanup.runs, cleanup.lock.instance, watch);
  for (const [method, phase] of Object.entries(BATCHES) as Array<[keyof typeof BATCHES, BatchPhase]>) {
    wrapBatch(cleanup.store, method, phase, cleanup.lock.instance, watch);
  }
}

function wrapRuns(runs: CleanupRunStore, instance: string, watch: Watch): void {
  const startRun = runs.startRun.bind(runs);
  const finishRun = runs.finishRun.bind(runs);
  Object.assign(runs, {
    startRun: async (...args: Parameters<CleanupRunStore['startRun']>) => {
      const runId = await startRun(...args);
      watch.batches.clear();
      await watch.observer.runStarted?.({ instance, runId });
      return runId;
    },
    finishRun: async (...args: Parameters<CleanupRunStore['finishRun']>) => {
      await finishRun(...args);
      await watch.observer.runFinished?.({ instance, runId: args[0] });
    },
  });
}

function wrapBatch(store: CleanupStore, method: keyof typeof BATCHES, phase: BatchPhase, instance: string, watch: Watch): void {
  const real = (store[method] as (request: { beforeCommit?: (rows: number) => Promise<void> }) => Promise<unknown>).bind(store);
  Object.assign(store, {
    [method]: async (request: { beforeCommit?: (rows: number) => Promise<void> }) => {
      const batch = (watch.batches.get(phase) ?? 0) + 1;
      watch.batches.set(phase, batch);
      const event: BatchEvent = { instance, phase, batch };
      await watch.observer.beforeBatch?.(event);
      const { beforeCommit } = watch.observer;
      if (!beforeCommit) return real(request);
      return real({
        ...request,
        beforeCommit: async (rows: number) => {
          await request.beforeCommit?.(rows);
          await beforeCommit({ ...event, rows });
        },
      });
    },
  });
}
