import type { Config } from '../config.js';
import type { JobLockStore } from '../core/job-lock-ports.js';
import type { HealthCheckStore } from '../core/health-check-ports.js';
import type { Clock } from '../core/ports.js';
import { addressPolicy, systemResolver, type Resolver } from './destination-address.js';
import { CHECK_TIMEOUT_MS, locateDestination, probeDestination } from './destination-probe.js';
import { DatabaseLock, newInstanceId } from './database-lock.js';
import { HealthChecker, type HealthCheckSettings } from './health-checker.js';
import { JobScheduler } from './job-scheduler.js';

/** The name of the health check's row in `shedlock`. */
export const HEALTH_CHECK_LOCK_NAME = 'linkforge-health-check';

/**
 * Four checks at once keeps a pass over many links short while one instance's sockets and the
 * destinations' servers barely notice; per host it is one at a time whatever this says.
 */
const CONCURRENCY = 4;
const BATCH_SIZE = 100;
/**
 * An address uses one slot at a time, so a few of its links waiting keep it busy; the rest of the
 * lookahead stays free for other addresses. Its further links are held back, up to a bound that
 * keeps memory small (about 200 bytes a link); past it they wait for the next run.
 */
const WAITING_PER_ADDRESS = 10;
const MAX_HELD_BACK = 5_000;
/** A destination that lets this many checks time out in a run is left alone until the next one. */
const ADDRESS_TIMEOUT_LIMIT = 3;
/** Held at most this long; a run starts no check in its last CHECK_TIMEOUT_MS, so it ends inside the hold. */
const LOCK_AT_MOST_MS = 60 * 60_000;
/** The first run waits a minute after start-up (or one interval, when that is shorter). */
const INITIAL_DELAY_MS = 60_000;

export interface HealthCheckJobs {
  readonly checker: HealthChecker;
  readonly scheduler: JobScheduler;
  /** Stops the schedule, aborts the checks in flight and releases the lock. */
  stop(): Promise<void>;
}

export interface HealthCheckJobsDeps {
  readonly settings: Config['healthcheck'];
  readonly allowPrivateDestinations: boolean;
  readonly clock: Clock;
  readonly lockStore: JobLockStore;
  readonly store: HealthCheckStore;
  /** The system resolver unless a test brings its own. */
  readonly resolve?: Resolver;
  readonly overrides?: Partial<HealthCheckSettings> & { readonly timeoutMs?: number };
  readonly instance?: string;
}

export function createHealthCheckJobs(deps: HealthCheckJobsDeps): HealthCheckJobs {
  const overrides = deps.overrides ?? {};
  const settings: HealthCheckSettings = {
    intervalMs: deps.settings.intervalMs,
    concurrency: overrides.concurrency ?? CONCURRENCY,
    batchSize: overrides.batchSize ?? BATCH_SIZE,
    maxDurationMs: overrides.maxDurationMs ?? LOCK_AT_MOST_MS - CHECK_TIMEOUT_MS,
    waitingPerAddress: overrides.waitingPerAddress ?? WAITING_PER_ADDRESS,
    maxHeldBack: overrides.maxHeldBack ?? MAX_HELD_BACK,
    addressIntervalMs: overrides.addressIntervalMs ?? deps.settings.addressIntervalMs,
    addressBudgetMs: overrides.addressBudgetMs ?? deps.settings.addressBudgetMs,
    addressTimeoutLimit: overrides.addressTimeoutLimit ?? ADDRESS_TIMEOUT_LIMIT,
    workspaceBudget: overrides.workspaceBudget ?? deps.settings.workspaceBudget,
  };
  const lock = new DatabaseLock({
    store: deps.lockStore,
    clock: deps.clock,
    name: HEALTH_CHECK_LOCK_NAME,
    instance: deps.instance ?? newInstanceId(),
    lockAtMostMs: LOCK_AT_MOST_MS,
    lockAtLeastMs: 0,
  });
  const policy = addressPolicy(deps.resolve ?? systemResolver, deps.allowPrivateDestinations);
  const timeoutMs = overrides.timeoutMs ?? CHECK_TIMEOUT_MS;
  const checker = new HealthChecker({
    store: deps.store,
    lock,
    clock: deps.clock,
    locate: (url, signal) => locateDestination(url, { ...policy, timeoutMs, signal }),
    probe: (url, firstHop, signal) => probeDestination(url, { ...policy, timeoutMs, signal, firstHop }),
    settings,
  });
  const scheduler = new JobScheduler(checker, {
    initialDelayMs: Math.min(INITIAL_DELAY_MS, settings.intervalMs),
    intervalMs: settings.intervalMs,
  });
  return {
    checker,
    scheduler,
    stop: async () => {
      await Promise.all([scheduler.stop(), checker.stop()]);
    },
  };
}
