import type { HealthCheckStore, LinkToCheck } from '../core/health-check-ports.js';
import type { Clock } from '../core/ports.js';
import { CheckBudgets, type CheckBudgetSettings } from './check-budgets.js';
import { dispatchChecks } from './check-dispatcher.js';
import type { DatabaseLock, HeldLock } from './database-lock.js';
import type { ResolvedAddress } from './destination-address.js';
import type { Located, ProbeResult } from './destination-probe.js';
import { DueLinkFeed } from './due-link-feed.js';
import { ExclusiveJob, type JobLogger, type JobResult, type RunTrigger, type StopReason } from './exclusive-job.js';

export interface HealthCheckSettings extends CheckBudgetSettings {
  /** HEALTHCHECK_INTERVAL: how often each link is checked. */
  readonly intervalMs: number;
  /** Checks in flight at once, over all addresses. */
  readonly concurrency: number;
  /** Links read per query; the next query is made while fewer than this wait. */
  readonly batchSize: number;
  /** Links of one address waiting at once before the rest are held back (src/jobs/check-dispatcher.ts). */
  readonly waitingPerAddress: number;
  /** Links held back at most; the rest wait for the next run. */
  readonly maxHeldBack: number;
  /** A run starts no check after this long past taking its lock. */
  readonly maxDurationMs: number;
}

export interface HealthCheckerDeps {
  readonly store: HealthCheckStore;
  readonly lock: DatabaseLock;
  readonly clock: Clock;
  /** Resolves and vets a destination's host; never throws (src/jobs/destination-probe.ts). */
  readonly locate: (url: string, signal: AbortSignal) => Promise<Located>;
  /** Asks one destination, connecting first to `address`; never throws. */
  readonly probe: (url: string, address: ResolvedAddress, signal: AbortSignal) => Promise<ProbeResult>;
  /** Monotonic milliseconds, for the pauses between checks of one address. */
  readonly monotonicNow?: () => number;
  readonly settings: HealthCheckSettings;
}

/** What a run reports: links checked, links left for the next run, and why it stopped early or failed. */
export interface HealthCheckReport {
  readonly checked: number;
  readonly deferred: number;
  readonly stoppedEarly: StopReason | null;
  readonly error: string | null;
}

export type HealthCheckRun = JobResult<HealthCheckReport>;

/**
 * The health check (ADR 0015): under the database lock (one instance at a time), asks the destination of every
 * due link, never-checked and oldest-checked first, a few at a time and one at a time per address,
 * paced per address and workspace (src/jobs/check-budgets.ts), and stores the status. Links the run
 * defers keep their last check, so the next run takes them first. A link is due when never checked or checked at least half an interval
 * before the run started: a full interval would skip every link checked late in the previous run,
 * and runs on other instances in between find nothing due. (Strictly before: with a frozen test clock
 * and a 0 interval, a link just checked is not due again in the same run.)
 */
export class HealthChecker extends ExclusiveJob<HealthCheckReport> {
  constructor(private readonly deps: HealthCheckerDeps) {
    super(deps.lock, deps.clock, 'health check');
  }

  /** A failure during the run is logged and reported; stopping aborts the checks in flight (their links stay unchecked). */
  protected async execute(held: HeldLock, _trigger: RunTrigger, log: JobLogger): Promise<HealthCheckReport> {
    const progress = { checked: 0, deferred: 0 };
    try {
      const stoppedEarly = await this.checkDueLinks(held.lockedAt + this.deps.settings.maxDurationMs, progress);
      log.info({ checked: progress.checked, deferred: progress.deferred, stoppedEarly }, 'health check run finished');
      return { checked: progress.checked, deferred: progress.deferred, stoppedEarly, error: null };
    } catch (error) {
      log.error({ err: error, checked: progress.checked }, 'health check run failed; the next interval goes on from the oldest check');
      return { checked: progress.checked, deferred: progress.deferred, stoppedEarly: null, error: error instanceof Error ? error.message : String(error) };
    }
  }

  private async checkDueLinks(deadline: number, progress: { checked: number; deferred: number }): Promise<StopReason | null> {
    const { store, clock, settings } = this.deps;
    const dueBefore = clock.now() - settings.intervalMs / 2;
    const feed = new DueLinkFeed(store, {
      pageSize: settings.batchSize,
      now: clock.now(),
      isDue: (link) => link.lastCheckedAt === null || link.lastCheckedAt < dueBefore,
    });
    const signal = this.stopSignal;
    const record = async (link: LinkToCheck, result: ProbeResult) => {
      if (this.isStopping) return;
      await store.recordCheck(link.id, result.status, clock.now());
      progress.checked += 1;
    };
    const locateByHost = hostLookups((url) => this.deps.locate(url, signal));
    const { deferred } = await dispatchChecks({
      nextPage: () => feed.nextPage(),
      locate: (link) => locateByHost(link.originalUrl),
      check: async (link, address) => {
        const result = await this.deps.probe(link.originalUrl, address, signal);
        await record(link, result);
        return result;
      },
      recordFailure: record,
      budgets: new CheckBudgets(settings),
      limit: settings.concurrency,
      lookahead: settings.batchSize,
      waitingPerAddress: settings.waitingPerAddress,
      maxHeldBack: settings.maxHeldBack,
      shouldStop: () => this.stopReason(deadline) !== null,
      signal,
      now: this.deps.monotonicNow ?? (() => performance.now()),
    });
    progress.deferred = deferred;
    return this.stopReason(deadline);
  }

}

/** Hosts looked up once per run at most; past this many, each link asks again. */
const MAX_REMEMBERED_HOSTS = 10_000;

/**
 * One lookup per host name and run: a name then keeps one address for the whole run, so a resolver
 * answering a new address each time cannot spread one host over many budgets.
 */
function hostLookups(locate: (url: string) => Promise<Located>): (url: string) => Promise<Located> {
  const byHost = new Map<string, Promise<Located>>();
  return (url) => {
    const host = hostOf(url);
    if (host === undefined) return locate(url);
    const known = byHost.get(host);
    if (known) return known;
    const located = locate(url);
    if (byHost.size < MAX_REMEMBERED_HOSTS) byHost.set(host, located);
    return located;
  };
}

/** The scheme and host a lookup depends on; undefined for a URL that does not parse. */
function hostOf(url: string): string | undefined {
  try {
    const { protocol, hostname } = new URL(url);
    return `${protocol}//${hostname}`;
  } catch {
    return undefined;
  }
}
