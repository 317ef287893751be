import type { CleanupRunStore, LockState, ReaperStore, RetentionBatchRequest } from '../core/cleanup-ports.js';
import type { ReaperMetrics, ReaperRunReport } from '../core/metrics-ports.js';
import type { Clock, LinkCacheInvalidator } from '../core/ports.js';
import type { DatabaseLock, HeldLock } from './database-lock.js';
import { pauseBetweenBatches } from './pause.js';

export interface ReaperSettings {
  readonly batchSize: number;
  readonly batchPauseMs: number;
  readonly maxDurationMs: number;
  readonly retentionMs: number;
  readonly bufferMs: number;
  readonly archive: boolean;
  readonly lockAtMostMs: number;
  readonly visitsRetentionMs: number;
  readonly rollupRetentionMs: number;
}

/**
 * The run's steps in order: mark expired links, purge old ones, delete raw visits past their
 * retention, then the visit facts no visit uses any more, then roll-ups past theirs.
 */
export type BatchPhase = 'mark' | 'purge' | 'visits' | 'facts' | 'rollups';

export interface BatchEvent {
  readonly instance: string;
  readonly phase: BatchPhase;
  /** 1-based within the phase, counting the last batch that finds nothing. */
  readonly batch: number;
}

/**
 * The seam for tests and metrics: every hook may be async; one that throws fails the run the
 * way a database error would. `beforeCommit` runs inside the batch's transaction, after its
 * writes, so a throw there proves the whole batch rolls back.
 */
export interface ReaperHooks {
  runStarted?(event: { readonly instance: string; readonly runId: number }): void | Promise<void>;
  beforeBatch?(event: BatchEvent): void | Promise<void>;
  beforeCommit?(event: BatchEvent & { readonly rows: number }): void | Promise<void>;
  runFinished?(event: { readonly instance: string; readonly result: FinishedRun }): void | Promise<void>;
}

/** What a run logs through; Fastify's and pino's loggers fit. */
export interface ReaperLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ReaperDeps {
  readonly store: ReaperStore;
  readonly runs: CleanupRunStore;
  readonly lock: DatabaseLock;
  readonly cache: Pick<LinkCacheInvalidator, 'markGone'>;
  readonly clock: Clock;
  readonly settings: ReaperSettings;
  /** Runs, rows and durations for /metrics; apart from `hooks`, which tests replace. */
  readonly metrics?: ReaperMetrics;
}

export type StopReason = 'time_limit' | 'shutdown';

/** A run as recorded in `cleanup_runs`; the status, times and row counts are what /metrics reports. */
export interface FinishedRun extends ReaperRunReport {
  readonly runId: number | undefined;
  readonly instance: string;
  readonly trigger: 'schedule' | 'manual';
  readonly startedAt: number;
  /** Batches that changed rows, over all phases. */
  readonly batches: number;
  /** Rows of the last batch that changed any. */
  readonly lastBatchSize: number;
  /** Why the run ended before running out of work, if it did; the rest waits for the next run. */
  readonly stoppedEarly: StopReason | null;
  readonly error: string | null;
}

export type RunResult =
  | ({ readonly outcome: 'ran' } & FinishedRun)
  | { readonly outcome: 'locked'; readonly holder: LockState | undefined }
  | { readonly outcome: 'stopping' };

const ABANDONED = 'abandoned: the instance running it stopped before finishing and its lock expired';
const FACTS_GRACE_MS = 24 * 3_600_000;
const silent: ReaperLogger = { info: () => {}, error: () => {} };

interface Totals {
  markedExpired: number; purged: number; archived: number; visitsDeleted: number; factsDeleted: number; rollupsDeleted: number;
  batches: number; lastBatchSize: number;
}

/**
 * SPEC section 6: under the database lock, mark ACTIVE links past their expiry as EXPIRED (their
 * cache entries become tombstones), then purge EXPIRED and DELETED links older than the cutoff,
 * archiving them first. Every run is a row in `cleanup_runs`. Redirects never wait for it: expiry
 * is judged on read, so the reaper only decides when storage is reclaimed.
 */
export class Reaper {
  /** Test and metrics seam; see ReaperHooks. */
  hooks: ReaperHooks = {};
  private stopping = false;
  private readonly wake = new AbortController();
  private readonly inFlight = new Set<Promise<RunResult>>();

  constructor(private readonly deps: ReaperDeps) {}

  get instance(): string {
    return this.deps.lock.instance;
  }

  /**
   * Runs once now if the lock is free. A failure during the run is recorded and returned, not
   * thrown; only a lock that cannot be read (the database is down) rejects.
   */
  run(options: { trigger?: 'schedule' | 'manual'; log?: ReaperLogger } = {}): Promise<RunResult> {
    if (this.stopping) return Promise.resolve({ outcome: 'stopping' });
    const running = this.runLocked(options.trigger ?? 'manual', options.log ?? silent);
    this.inFlight.add(running);
    running.then(() => this.inFlight.delete(running), () => this.inFlight.delete(running));
    return running;
  }

  /** Refuses new runs and makes the current one stop after the batch in progress. */
  requestStop(): void {
    this.stopping = true;
    this.wake.abort();
  }

  /** requestStop, then waits until every run has recorded itself and released the lock. */
  async stop(): Promise<void> {
    this.requestStop();
    await Promise.allSettled([...this.inFlight]);
  }

  private async runLocked(trigger: 'schedule' | 'manual', log: ReaperLogger): Promise<RunResult> {
    const held = await this.deps.lock.tryAcquire();
    if (!held) return { outcome: 'locked', holder: await this.deps.lock.findHolder().catch(() => undefined) };
    try {
      if (this.stopping) return { outcome: 'stopping' };
      const result = await this.execute(trigger, held, log);
      return { outcome: 'ran', ...result };
    } finally {
      await held.release().catch((error: unknown) => log.error({ err: error }, 'reaper could not release its lock; it expires on its own'));
    }
  }

  private async execute(trigger: 'schedule' | 'manual', held: HeldLock, log: ReaperLogger): Promise<FinishedRun> {
    const { clock, runs, settings } = this.deps;
    const startedAt = clock.now();
    const deadline = held.lockedAt + Math.min(settings.maxDurationMs, settings.lockAtMostMs);
    const totals: Totals = { markedExpired: 0, purged: 0, archived: 0, visitsDeleted: 0, factsDeleted: 0, rollupsDeleted: 0, batches: 0, lastBatchSize: 0 };
    let runId: number | undefined;
    let stoppedEarly: StopReason | null = null;
    let failure: unknown;
    try {
      const abandoned = await runs.failAbandonedRuns(startedAt - settings.lockAtMostMs, startedAt, ABANDONED);
      if (abandoned > 0) log.info({ abandoned }, 'reaper marked runs of dead instances as failed');
      runId = await runs.startRun(this.instance, startedAt);
      await this.hooks.runStarted?.({ instance: this.instance, runId });
      stoppedEarly = await this.markPhase(startedAt, deadline, totals);
      if (stoppedEarly === null) stoppedEarly = await this.purgePhase(startedAt, deadline, totals);
      if (stoppedEarly === null) stoppedEarly = await this.retentionPhases(startedAt, deadline, totals);
    } catch (error) {
      failure = error;
    }
    const finishedAt = clock.now();
    const result: FinishedRun = {
      status: failure === undefined ? 'succeeded' : 'failed',
      runId, instance: this.instance, trigger, startedAt, finishedAt,
      durationMs: Math.max(0, finishedAt - startedAt),
      ...totals,
      stoppedEarly: failure === undefined ? stoppedEarly : null,
      error: failure === undefined ? null : describe(failure),
    };
    if (runId !== undefined) {
      await runs.finishRun(runId, result).catch((error: unknown) => log.error({ err: error, runId }, 'reaper could not record its run'));
    }
    if (failure !== undefined) log.error({ err: failure, ...totals }, 'reaper run failed; completed batches stay committed, the next interval retries');
    else log.info({ ...totals, durationMs: result.durationMs, stoppedEarly }, 'reaper run finished');
    this.deps.metrics?.runFinished(result);
    await (async () => this.hooks.runFinished?.({ instance: this.instance, result }))()
      .catch((error: unknown) => log.error({ err: error }, 'reaper runFinished hook failed'));
    return result;
  }

  private async markPhase(now: number, deadline: number, totals: Totals): Promise<StopReason | null> {
    const { store, cache, settings } = this.deps;
    let cursor;
    for (let batch = 1; ; batch++) {
      const event: BatchEvent = { instance: this.instance, phase: 'mark', batch };
      await this.hooks.beforeBatch?.(event);
      const result = await store.markExpiredBatch({
        now, limit: settings.batchSize, after: cursor, beforeCommit: this.beforeCommit(event),
      });
      await Promise.all(result.links.map((link) => cache.markGone(link.domain, link.code, 'EXPIRED')));
      cursor = result.cursor;
      count(totals, result.links.length);
      totals.markedExpired += result.links.length;
      if (result.links.length < settings.batchSize) return this.stopReason(deadline);
      const stop = await this.pause(deadline);
      if (stop) return stop;
    }
  }

  private purgePhase(now: number, deadline: number, totals: Totals): Promise<StopReason | null> {
    const { store, settings } = this.deps;
    const cutoff = now - Math.max(settings.retentionMs, settings.bufferMs);
    return this.inBatches('purge', deadline, async (event) => {
      const result = await store.purgeBatch({
        cutoff, limit: settings.batchSize, archivedAt: settings.archive ? now : undefined, beforeCommit: this.beforeCommit(event),
      });
      count(totals, result.purged);
      totals.purged += result.purged;
      totals.archived += result.archived;
      return result.purged;
    });
  }

  /** Raw visits past VISITS_RETENTION, then the facts no visit uses any more, then roll-ups past ROLLUP_RETENTION. */
  private async retentionPhases(now: number, deadline: number, totals: Totals): Promise<StopReason | null> {
    const { store, settings } = this.deps;
    const visitsBefore = now - settings.visitsRetentionMs;
    return await this.retentionPhase('visits', visitsBefore, deadline, totals, 'visitsDeleted', (r) => store.deleteVisitsBatch(r))
      ?? await this.retentionPhase('facts', visitsBefore - FACTS_GRACE_MS, deadline, totals, 'factsDeleted', (r) => store.deleteUnusedFactsBatch(r))
      ?? await this.retentionPhase('rollups', now - settings.rollupRetentionMs, deadline, totals, 'rollupsDeleted', (r) => store.deleteRollupsBatch(r));
  }

  /**
   * Deletes rows of one analytics table from before `before` in batches, adding them to `total`.
   * Raw visits are kept VISITS_RETENTION. Facts go once the visits phase has deleted every visit
   * past the cutoff, a day after their last use passed it: a visit may sit behind a newer one in id
   * order by a flush's delay (ADR 0016), and the visits phase deletes it only on a later run.
   * Roll-ups are kept ROLLUP_RETENTION (ADR 0021). The counters they all add up to stay for good.
   */
  private retentionPhase(
    phase: 'visits' | 'facts' | 'rollups', before: number, deadline: number, totals: Totals,
    total: 'visitsDeleted' | 'factsDeleted' | 'rollupsDeleted', deleteBatch: (request: RetentionBatchRequest) => Promise<number>,
  ): Promise<StopReason | null> {
    return this.inBatches(phase, deadline, async (event) => {
      const rows = await deleteBatch({ before, limit: this.deps.settings.batchSize, beforeCommit: this.beforeCommit(event) });
      count(totals, rows);
      totals[total] += rows;
      return rows;
    });
  }

  /** Runs `batch` until one changes fewer rows than a full batch, pausing between batches. */
  private async inBatches(phase: BatchPhase, deadline: number, batch: (event: BatchEvent) => Promise<number>): Promise<StopReason | null> {
    for (let number = 1; ; number++) {
      const event: BatchEvent = { instance: this.instance, phase, batch: number };
      await this.hooks.beforeBatch?.(event);
      if (await batch(event) < this.deps.settings.batchSize) return null;
      const stop = await this.pause(deadline);
      if (stop) return stop;
    }
  }

  private beforeCommit(event: BatchEvent) {
    const hook = this.hooks.beforeCommit;
    return hook && (async (rows: number) => hook({ ...event, rows }));
  }

  private stopReason(deadline: number): StopReason | null {
    if (this.stopping) return 'shutdown';
    return this.deps.clock.now() >= deadline ? 'time_limit' : null;
  }

  private async pause(deadline: number): Promise<StopReason | null> {
    const before = this.stopReason(deadline);
    if (before) return before;
    await pauseBetweenBatches(this.deps.settings.batchPauseMs, this.wake.signal);
    return this.stopReason(deadline);
  }
}

function count(totals: Totals, rows: number): void {
  if (rows === 0) return;
  totals.batches += 1;
  totals.lastBatchSize = rows;
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 2000);
  return String(error).slice(0, 2000);
}
