import type { HealthCheckStore, LinkToCheck } from '../core/health-check-ports.js';
import type { Clock } from '../core/ports.js';
import type { DatabaseLock } from './database-lock.js';
import type { ProbeResult } from './destination-probe.js';
import { runKeyedPool } from './keyed-pool.js';
import type { ReaperLogger } from './reaper.js';

export interface HealthCheckSettings {
  /** HEALTHCHECK_INTERVAL: how often each link is checked. */
  readonly intervalMs: number;
  /** Checks in flight at once, over all hosts. */
  readonly concurrency: number;
  /** Links read per query. */
  readonly batchSize: number;
  /** A run starts no check after this long past taking its lock. */
  readonly maxDurationMs: number;
}

export interface HealthCheckerDeps {
  readonly store: HealthCheckStore;
  readonly lock: DatabaseLock;
  readonly clock: Clock;
  /** Asks one destination; never throws (src/jobs/destination-probe.ts). */
  readonly probe: (url: string, signal: AbortSignal) => Promise<ProbeResult>;
  readonly settings: HealthCheckSettings;
}

export type StopReason = 'time_limit' | 'shutdown';

export type HealthCheckRun =
  | { readonly outcome: 'ran'; readonly checked: number; readonly stoppedEarly: StopReason | null; readonly error: string | null }
  | { readonly outcome: 'locked' }
  | { readonly outcome: 'stopping' };

const silent: ReaperLogger = { info: () => {}, error: () => {} };

/**
 * SPEC section 8: under the database lock (one instance at a time), asks the destination of every
 * due link, never-checked and oldest-checked first, a few at a time and one at a time per host,
 * and stores the status. A link is due when never checked or checked at least half an interval
 * before the run started: a full interval would skip every link checked late in the previous run,
 * and runs on other instances in between find nothing due. (Strictly before: with a frozen test clock
 * and a 0 interval, a link just checked is not due again in the same run.)
 */
export class HealthChecker {
  private stopping = false;
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<HealthCheckRun>>();

  constructor(private readonly deps: HealthCheckerDeps) {}

  /** Runs once now if the lock is free. Only a lock that cannot be read rejects; other failures are logged. */
  run(options: { trigger?: 'schedule' | 'manual'; log?: ReaperLogger } = {}): Promise<HealthCheckRun> {
    if (this.stopping) return Promise.resolve({ outcome: 'stopping' });
    const running = this.runLocked(options.log ?? silent);
    this.inFlight.add(running);
    running.then(() => this.inFlight.delete(running), () => this.inFlight.delete(running));
    return running;
  }

  /** Refuses new runs, aborts the checks in flight (their links stay unchecked) and waits for the lock's release. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  private async runLocked(log: ReaperLogger): Promise<HealthCheckRun> {
    const held = await this.deps.lock.tryAcquire();
    if (!held) return { outcome: 'locked' };
    const progress = { checked: 0 };
    try {
      if (this.stopping) return { outcome: 'stopping' };
      const stoppedEarly = await this.checkDueLinks(held.lockedAt + this.deps.settings.maxDurationMs, progress);
      log.info({ checked: progress.checked, stoppedEarly }, 'health check run finished');
      return { outcome: 'ran', checked: progress.checked, stoppedEarly, error: null };
    } catch (error) {
      log.error({ err: error, checked: progress.checked }, 'health check run failed; the next interval goes on from the oldest check');
      return { outcome: 'ran', checked: progress.checked, stoppedEarly: null, error: error instanceof Error ? error.message : String(error) };
    } finally {
      await held.release().catch((error: unknown) => log.error({ err: error }, 'health check could not release its lock; it expires on its own'));
    }
  }

  private async checkDueLinks(deadline: number, progress: { checked: number }): Promise<StopReason | null> {
    const { store, clock, settings } = this.deps;
    const dueBefore = clock.now() - settings.intervalMs / 2;
    const isDue = (link: LinkToCheck) => link.lastCheckedAt === null || link.lastCheckedAt < dueBefore;
    for (;;) {
      const stop = this.stopReason(deadline);
      if (stop) return stop;
      const batch = await store.nextLinksToCheck(settings.batchSize, clock.now());
      // Oldest first, so the due links are a prefix of the batch.
      const due = batch.filter(isDue);
      if (due.length === 0) return null;
      await runKeyedPool(due, { limit: settings.concurrency, keyOf: hostOf, shouldStop: () => this.stopReason(deadline) !== null },
        async (link) => {
          const result = await this.deps.probe(link.originalUrl, this.abort.signal);
          if (this.stopping) return;
          await store.recordCheck(link.id, result.status, clock.now());
          progress.checked += 1;
        });
      if (due.length < batch.length || batch.length < settings.batchSize) return this.stopReason(deadline);
    }
  }

  private stopReason(deadline: number): StopReason | null {
    if (this.stopping) return 'shutdown';
    return this.deps.clock.now() >= deadline ? 'time_limit' : null;
  }
}

/** Links whose URL does not parse share one key: they fail at once without a request. */
function hostOf(link: LinkToCheck): string {
  try {
    return new URL(link.originalUrl).hostname;
  } catch {
    return '';
  }
}
