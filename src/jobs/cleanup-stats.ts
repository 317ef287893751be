import type { CleanupRunStore } from '../core/cleanup-ports.js';
import type { DatabaseLock } from './database-lock.js';

/** The cleanup statistics (ADR 0005), computed from `cleanup_runs`, so shared by all instances. */
export interface CleanupStats {
  /** When the most recently started run that has finished (succeeded or failed) finished. */
  readonly lastCleanupTime: number | null;
  /** Links hard-deleted, over all runs (failed runs included: their committed batches count). */
  readonly totalCleaned: number;
  /** Rows of the last batch that changed any, in that run. */
  readonly lastBatchSize: number;
  readonly successfulRuns: number;
  readonly failedRuns: number;
  /** Mean duration of the successful runs, 0 before the first. */
  readonly averageCleanupMs: number;
  /** A run is recorded as running by the instance that holds the lock right now. */
  readonly isRunning: boolean;
  readonly totalMarkedExpired: number;
  readonly totalArchived: number;
  /** Raw visits deleted by VISITS_RETENTION, over all runs. */
  readonly totalVisitsDeleted: number;
}

export interface CleanupStatsDeps {
  readonly runs: CleanupRunStore;
  readonly lock: DatabaseLock;
}

export async function getCleanupStats(deps: CleanupStatsDeps): Promise<CleanupStats> {
  const [summary, holder] = await Promise.all([deps.runs.summarize(), deps.lock.findHolder()]);
  const isRunning = holder !== undefined && await deps.runs.hasRunningRun(holder.lockedBy, holder.lockedAt);
  return {
    lastCleanupTime: summary.lastFinished?.finishedAt ?? null,
    totalCleaned: summary.totalPurged,
    lastBatchSize: summary.lastFinished?.lastBatchSize ?? 0,
    successfulRuns: summary.successfulRuns,
    failedRuns: summary.failedRuns,
    averageCleanupMs: summary.averageDurationMs === null ? 0 : Math.round(summary.averageDurationMs * 10) / 10,
    isRunning,
    totalMarkedExpired: summary.totalMarkedExpired,
    totalArchived: summary.totalArchived,
    totalVisitsDeleted: summary.totalVisitsDeleted,
  };
}
