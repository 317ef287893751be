import type { CleanupMetrics, CleanupRunStore, CleanupStore, FinishedCleanupRun } from '../core/cleanup-ports.js';
import type { Clock, LinkCacheInvalidator } from '../core/ports.js';
import { emptyTally, runCleanupPhases, type CleanupSettings, type RunTally } from './cleanup-phases.js';
import type { DatabaseLock, HeldLock } from './database-lock.js';
import { ExclusiveJob, type JobLogger, type JobResult, type RunTrigger, type StopReason } from './exclusive-job.js';
import { pauseBetweenBatches } from './pause.js';

export interface CleanupJobDeps {
  readonly store: CleanupStore;
  readonly runs: CleanupRunStore;
  readonly lock: DatabaseLock;
  readonly cache: Pick<LinkCacheInvalidator, 'markGone'>;
  readonly clock: Clock;
  readonly settings: CleanupSettings;
  /** Runs, rows and durations for /metrics. */
  readonly metrics?: CleanupMetrics;
}

/** What a run reports: its record in `cleanup_runs`, the status, times and row counts /metrics counts, and who ran it. */
export interface CleanupRunReport extends FinishedCleanupRun {
  readonly runId: number | undefined;
  readonly instance: string;
  readonly trigger: RunTrigger;
  readonly startedAt: number;
  /** Why the run ended before running out of work, if it did; the rest waits for the next run. */
  readonly stoppedEarly: StopReason | null;
}

export type CleanupRunResult = JobResult<CleanupRunReport>;

const ABANDONED = 'abandoned: the instance running it stopped before finishing and its lock expired';

/**
 * The cleanup run (ADR 0005): under the database lock, mark ACTIVE links past their expiry as EXPIRED (their
 * cache entries become tombstones), then purge EXPIRED and DELETED links older than the cutoff,
 * archiving them first, then delete analytics rows past their retention (src/jobs/cleanup-phases.ts).
 * Every run is a row in `cleanup_runs`. Redirects never wait for it: expiry is judged on read, so
 * the job only decides when storage is reclaimed. Its log lines say "reaper", as they always have.
 */
export class CleanupJob extends ExclusiveJob<CleanupRunReport> {
  constructor(private readonly deps: CleanupJobDeps) {
    super(deps.lock, deps.clock, 'reaper');
  }

  /** A failure during the run is recorded and reported, not thrown. */
  protected async execute(held: HeldLock, trigger: RunTrigger, log: JobLogger): Promise<CleanupRunReport> {
    const { runs, settings } = this.deps;
    const startedAt = this.clock.now();
    const deadline = held.lockedAt + Math.min(settings.maxDurationMs, settings.lockAtMostMs);
    const tally = emptyTally();
    let runId: number | undefined;
    let stoppedEarly: StopReason | null = null;
    let failure: unknown;
    try {
      const abandoned = await runs.failAbandonedRuns(startedAt - settings.lockAtMostMs, startedAt, ABANDONED);
      if (abandoned > 0) log.info({ abandoned }, 'reaper marked runs of dead instances as failed');
      runId = await runs.startRun(this.instance, startedAt);
      stoppedEarly = await runCleanupPhases({
        store: this.deps.store, cache: this.deps.cache, settings, now: startedAt, tally,
        stopReason: () => this.stopReason(deadline),
        pause: () => this.pause(deadline),
      });
    } catch (error) {
      failure = error;
    }
    const finishedAt = this.clock.now();
    const report: CleanupRunReport = {
      status: failure === undefined ? 'succeeded' : 'failed',
      runId, instance: this.instance, trigger, startedAt, finishedAt,
      durationMs: Math.max(0, finishedAt - startedAt),
      ...tally,
      stoppedEarly: failure === undefined ? stoppedEarly : null,
      error: failure === undefined ? null : describe(failure),
    };
    await this.record(report, tally, failure, log);
    return report;
  }

  private async record(report: CleanupRunReport, tally: RunTally, failure: unknown, log: JobLogger): Promise<void> {
    const { runId } = report;
    if (runId !== undefined) {
      await this.deps.runs.finishRun(runId, report).catch((error: unknown) => log.error({ err: error, runId }, 'reaper could not record its run'));
    }
    if (failure !== undefined) log.error({ err: failure, ...tally }, 'reaper run failed; completed batches stay committed, the next interval retries');
    else log.info({ ...tally, durationMs: report.durationMs, stoppedEarly: report.stoppedEarly }, 'reaper run finished');
    this.deps.metrics?.runFinished(report);
  }

  private async pause(deadline: number): Promise<StopReason | null> {
    const before = this.stopReason(deadline);
    if (before) return before;
    await pauseBetweenBatches(this.deps.settings.batchPauseMs, this.stopSignal);
    return this.stopReason(deadline);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 2000);
  return String(error).slice(0, 2000);
}
