import type { Config } from '../config.js';
import type { CleanupRunStore, JobLockStore, ReaperStore } from '../core/cleanup-ports.js';
import type { ReaperMetrics } from '../core/metrics-ports.js';
import type { Clock } from '../core/ports.js';
import { getCleanupStats, type CleanupStats } from './cleanup-stats.js';
import { DatabaseLock, newInstanceId } from './database-lock.js';
import { Reaper, type ReaperDeps } from './reaper.js';
import { JobScheduler } from './job-scheduler.js';

/** The name of the reaper's row in `shedlock`. */
export const REAPER_LOCK_NAME = 'linkforge-reaper';

/** The reaper, its schedule and its statistics, as the app and `close()` use them. */
export interface CleanupJobs {
  readonly reaper: Reaper;
  readonly scheduler: JobScheduler;
  readonly lock: DatabaseLock;
  stats(): Promise<CleanupStats>;
  /** Stops the schedule, lets the batch in progress finish, records the run, releases the lock. */
  stop(): Promise<void>;
}

export interface CleanupJobsDeps {
  readonly settings: Config['cleanup'];
  readonly clock: Clock;
  readonly lockStore: JobLockStore;
  readonly reaperStore: ReaperStore;
  readonly runStore: CleanupRunStore;
  readonly cache: ReaperDeps['cache'];
  readonly instance?: string;
  readonly metrics?: ReaperMetrics;
}

export function createCleanupJobs(deps: CleanupJobsDeps): CleanupJobs {
  const { settings, clock } = deps;
  const lock = new DatabaseLock({
    store: deps.lockStore,
    clock,
    name: REAPER_LOCK_NAME,
    instance: deps.instance ?? newInstanceId(),
    lockAtMostMs: settings.lockAtMostMs,
    lockAtLeastMs: settings.lockAtLeastMs,
  });
  const reaper = new Reaper({ store: deps.reaperStore, runs: deps.runStore, lock, cache: deps.cache, clock, settings, metrics: deps.metrics });
  const scheduler = new JobScheduler(reaper, settings);
  return {
    reaper,
    scheduler,
    lock,
    stats: () => getCleanupStats({ runs: deps.runStore, lock }),
    stop: async () => {
      await Promise.all([scheduler.stop(), reaper.stop()]);
      await deps.reaperStore.close?.();
    },
  };
}
