/**
 * Ports of the cleanup job (ADR 0005, configured as `CLEANUP_*`): the batch operations on
 * links and visits, and the record of runs. One Kysely implementation serves SQLite and PostgreSQL
 * (src/storage); the job's lock is src/core/job-lock-ports.ts.
 */

/** Where the mark phase resumes: the last link it looked at, in `(expires_at, id)` order. */
export interface MarkCursor {
  readonly expiresAt: number;
  readonly id: number;
}

export interface MarkBatchRequest {
  readonly now: number;
  readonly limit: number;
  readonly after: MarkCursor | undefined;
  /** Runs inside the batch's transaction after its writes; throwing rolls the whole batch back. */
  readonly beforeCommit?: (rows: number) => Promise<void>;
}

export interface MarkedLink {
  readonly domain: string;
  readonly code: string;
}

export interface MarkBatchResult {
  /** The links this batch turned from ACTIVE into EXPIRED. */
  readonly links: readonly MarkedLink[];
  readonly cursor: MarkCursor | undefined;
}

export interface PurgeBatchRequest {
  readonly cutoff: number;
  readonly limit: number;
  /** Copy each purged row to `links_archive` with this `archived_at`; undefined: no copy. */
  readonly archivedAt: number | undefined;
  readonly beforeCommit?: (rows: number) => Promise<void>;
}

export interface PurgeBatchResult {
  readonly purged: number;
  readonly archived: number;
}

/** Rows of an analytics table from before `before` (visited, last used, or of that hour or day) go, at most `limit` of them. */
export interface RetentionBatchRequest {
  readonly before: number;
  readonly limit: number;
  readonly beforeCommit?: (rows: number) => Promise<void>;
}

/** The batch operations of the cleanup job, each one short transaction. */
export interface CleanupStore {
  /** ACTIVE links with `expires_at < now` become EXPIRED, at most `limit` of them. */
  markExpiredBatch(request: MarkBatchRequest): Promise<MarkBatchResult>;
  /**
   * Hard-deletes at most `limit` links that are past the purge cutoff (and archives them), and
   * their raw visits in the same transaction. Their roll-ups stay, like the archived counters.
   */
  purgeBatch(request: PurgeBatchRequest): Promise<PurgeBatchResult>;
  /**
   * Deletes raw visit rows older than `before` among the `limit` first in insertion order; answers
   * how many. Rows are inserted in time order to within a flush's delay, so this is oldest first
   * without an index on time, and a batch that deletes fewer than `limit` means none older wait.
   */
  deleteVisitsBatch(request: RetentionBatchRequest): Promise<number>;
  /** Deletes `visit_facts` rows whose latest visit was before `before` (so none is left); answers how many. */
  deleteUnusedFactsBatch(request: RetentionBatchRequest): Promise<number>;
  /**
   * Deletes hourly roll-up rows of hours, then daily ones of days, that start before `before`,
   * `limit` rows in all; answers how many. Counters and the global row stay.
   */
  deleteRollupsBatch(request: RetentionBatchRequest): Promise<number>;
  /** Deletes delivered and given-up webhook deliveries of events before `before`, the oldest first, `limit` at most; answers how many. Pending ones stay. */
  deleteFinishedWebhookDeliveriesBatch(request: RetentionBatchRequest): Promise<number>;
  /** Releases what the store holds of its own (a worker thread), after the last batch. */
  close?(): Promise<void>;
}

export type CleanupRunStatus = 'running' | 'succeeded' | 'failed';

/** What one run changed: rows by kind, and its batches. The one spelling of a run's totals. */
export interface RunTotals {
  readonly markedExpired: number;
  readonly purged: number;
  readonly archived: number;
  /** Raw visit rows deleted for being older than VISITS_RETENTION (not those of purged links). */
  readonly visitsDeleted: number;
  /** Visit facts no visit uses any more (not recorded in `cleanup_runs`). */
  readonly factsDeleted: number;
  /** Hourly and daily roll-up rows past ROLLUP_RETENTION (not recorded in `cleanup_runs`). */
  readonly rollupsDeleted: number;
  /** Delivered and given-up webhook deliveries past WEBHOOK_DELIVERY_RETENTION (not recorded in `cleanup_runs`). */
  readonly webhookDeliveriesDeleted: number;
  /** Batches that changed rows, over all phases. */
  readonly batches: number;
  /** Rows of the last batch that changed any. */
  readonly lastBatchSize: number;
}

/** A finished run as `cleanup_runs` records it and /metrics counts it. */
export interface FinishedCleanupRun extends RunTotals {
  readonly status: 'succeeded' | 'failed';
  readonly finishedAt: number;
  readonly durationMs: number;
  readonly error: string | null;
}

/** Where a finished run is counted for /metrics (ADR 0018). */
export interface CleanupMetrics {
  runFinished(run: FinishedCleanupRun): void;
}

export interface CleanupRunSummary {
  readonly successfulRuns: number;
  readonly failedRuns: number;
  readonly totalPurged: number;
  readonly totalMarkedExpired: number;
  readonly totalArchived: number;
  readonly totalVisitsDeleted: number;
  /** Mean duration of the successful runs; null before the first one. */
  readonly averageDurationMs: number | null;
  /** The most recently started run that has finished, if any. */
  readonly lastFinished: { readonly finishedAt: number; readonly lastBatchSize: number } | undefined;
}

/** One row of `cleanup_runs`, as the operator's page lists it. */
export interface RecordedCleanupRun extends Omit<RunTotals, 'factsDeleted' | 'rollupsDeleted' | 'webhookDeliveriesDeleted'> {
  readonly id: number;
  readonly instance: string;
  readonly status: CleanupRunStatus;
  readonly startedAt: number;
  readonly finishedAt: number | null;
  readonly durationMs: number | null;
  readonly error: string | null;
}

/** The `cleanup_runs` table: one row per run, shared by every instance. */
export interface CleanupRunStore {
  startRun(instance: string, startedAt: number): Promise<number>;
  finishRun(id: number, run: FinishedCleanupRun): Promise<void>;
  /**
   * Marks `running` rows started at or before `startedAtOrBefore` as failed: a run that old has
   * outlived its lock, so its instance died (a live run stops at its lock's expiry).
   */
  failAbandonedRuns(startedAtOrBefore: number, now: number, error: string): Promise<number>;
  /** Whether `instance` has a run in progress that started at or after `since`. */
  hasRunningRun(instance: string, since: number): Promise<boolean>;
  summarize(): Promise<CleanupRunSummary>;
  /** The `limit` most recently started runs, newest first, running ones included. */
  listRecentRuns(limit: number): Promise<RecordedCleanupRun[]>;
}
