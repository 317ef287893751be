import type { Config } from '../config.js';
import type { CleanupMetrics, CleanupRunStore, CleanupStore } from '../core/cleanup-ports.js';
import type { JobLockStore } from '../core/job-lock-ports.js';
import type { Clock } from '../core/ports.js';
import { CleanupJob, type CleanupJobDeps } from './cleanup-job.js';
import { getCleanupStats, type CleanupStats } from './cleanup-stats.js';
import { DatabaseLock, newInstanceId } from './database-lock.js';
import { JobScheduler } from './job-scheduler.js';

/** The name of the cleanup job's row in `shedlock` (named when the job was called the reaper; rows already hold it). */
export const CLEANUP_LOCK_NAME = 'linkforge-reaper';

/** The cleanup job, its schedule and its statistics, as the app and `close()` use them. */
export interface CleanupJobs {
  readonly job: CleanupJob;
  readonly scheduler: JobScheduler;
  readonly lock: DatabaseLock;
  /** The ports the job works through: its batches and its record of runs. */
  readonly store: CleanupStore;
  readonly runs: CleanupRunStore;
  stats(): Promise<CleanupStats>;
  /** Stops the schedule, lets the batch in progress finish, records the run, releases the lock. */
  stop(): Promise<void>;
}

export interface CleanupJobsDeps {
  readonly settings: Config['cleanup'];
  readonly clock: Clock;
  readonly lockStore: JobLockStore;
  readonly cleanupStore: CleanupStore;
  readonly runStore: CleanupRunStore;
  readonly cache: CleanupJobDeps['cache'];
  readonly instance?: string;
  readonly metrics?: CleanupMetrics;
}

export function createCleanupJobs(deps: CleanupJobsDeps): CleanupJobs {
  const { settings, clock } = deps;
  const lock = new DatabaseLock({
    store: deps.lockStore,
    clock,
    name: CLEANUP_LOCK_NAME,
    instance: deps.instance ?? newInstanceId(),
    lockAtMostMs: settings.lockAtMostMs,
    lockAtLeastMs: settings.lockAtLeastMs,
  });
  const store = deps.cleanupStore;
  const runs = deps.runStore;
  const job = new CleanupJob({ store, runs, lock, cache: deps.cache, clock, settings, metrics: deps.metrics });
  const scheduler = new JobScheduler(job, settings);
  return {
    job,
    scheduler,
    lock,
    store,
    runs,
    stats: () => getCleanupStats({ runs, lock }),
    stop: async () => {
      await Promise.all([scheduler.stop(), job.stop()]);
      await store.close?.();
    },
  };
}
