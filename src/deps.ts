import type { Logger } from 'pino';
import type { Config } from './config.js';
import { systemClock, type Clock, type LinkStore, type ReadinessCheck, type SharedRateLimitStore } from './core/ports.js';
import { DEFAULT_DOMAIN } from './core/link.js';
import { CacheInvalidation } from './cache/cache-invalidation.js';
import { MemoryLinkCache } from './cache/memory-link-cache.js';
import type { RedisTier } from './cache/redis-tier.js';
import { LinkResolver } from './links/resolve-link.js';
import type { LinkServices } from './links/link-services.js';
import type { StatsDeps } from './links/get-global-stats.js';
import { KyselyLinkTransferStore } from './storage/link-transfer-store.js';
import { KyselyVisitorSaltStore } from './storage/visitor-salt-store.js';
import { openSqlite, type OpenDatabase } from './storage/database.js';
import { KyselyLinkStore } from './storage/link-store.js';
import { KyselyClickLimitStore } from './storage/click-limit-store.js';
import type { ClickLimitStore } from './core/click-limit-ports.js';
import { KyselyTagStore } from './storage/tag-store.js';
import { createCleanupJobs, type CleanupJobs } from './jobs/cleanup-jobs.js';
import { KyselyCleanupRunStore } from './storage/cleanup-run-store.js';
import { KyselyJobLockStore } from './storage/job-lock-store.js';
import { KyselyCleanupStore } from './storage/cleanup-store.js';
import type { HealthCheckJobs } from './jobs/health-check-jobs.js';
import type { WebhookJobs } from './jobs/webhook-jobs.js';
import type { WebhookServices } from './webhooks/webhook-services.js';
import { migrateToLatest } from './storage/migrations/index.js';
import { createAccountServices, type AccountServices } from './accounts/account-services.js';
import type { PasswordHashing } from './accounts/password-hasher.js';
import type { AdminServices } from './admin/admin-services.js';
import { KyselyOperatorStore } from './storage/operator-store.js';
import type { WorkspaceAccess } from './accounts/workspace-access.js';
import type { LinkPasswordHashing } from './links/link-password.js';
import type { RecordVisit } from './visits/visit-buffer.js';
import { KyselyAccountStore } from './storage/account-store.js';
import { visitWriterFor } from './storage/visits/visit-writer.js';
import { createVisitPipeline, type VisitPipeline } from './visits/create-visit-pipeline.js';
import { countryLookupFor, placeLookupFor } from './geo/country-database.js';
import type { HttpMetrics } from './core/metrics-ports.js';
import { PrometheusMetrics } from './metrics/prometheus-metrics.js';
import type { KnownHosts } from './links/domains/known-hosts.js';
import {
  buildCustomDomains, buildDomainServices, buildHealthCheckJobs, buildLocalCache, buildSingleSignOn, buildStats, buildUrlPolicy, buildWebhooks,
  followOtherProcesses, webhookClicksOf, type CustomDomains,
} from './deps-builders.js';
import type { SingleSignOnServices } from './accounts/single-sign-on-services.js';

/** What the redirect path needs: the tiered lookup (src/links/resolve-link.ts), its domain, and where visits go. */
export interface RedirectServices {
  readonly resolver: LinkResolver;
  readonly domain: string;
  /** The verified custom domains by hostname (ADR 0036). */
  readonly hosts: KnownHosts;
  readonly recordVisit?: RecordVisit;
  /** Where limited links take their clicks (ADR 0031). */
  readonly clickLimits: ClickLimitStore;
  /** The country of a client address, for links with routes (ADR 0031). */
  readonly countryOf?: (address: string) => string | undefined;
  /** The salt of a UTC day's visitor ids, for the variant of an A/B split; absent when analytics are off. */
  readonly saltOf?: (dayStart: number) => Promise<Buffer | undefined>;
}

/** What the server itself needs beside the modules: readiness, shared rate-limit counters, metrics. */
export interface ServerServices {
  readonly readiness: ReadinessCheck;
  /** Where rate-limit counters live when instances share them (Redis); in-process otherwise. */
  readonly rateLimitStore?: SharedRateLimitStore;
  /** What `/metrics` serves and the HTTP layer counts into; absent when METRICS_ENABLED=false. */
  readonly metrics?: HttpMetrics;
}

/**
 * What the HTTP layer and the CLI receive: configuration, the clock and one services bag per
 * module. Each route module and each command is handed only its own bag (src/app.ts, src/cli).
 * No database handle and no concrete cache reach it.
 */
export interface AppDeps {
  readonly config: Config;
  readonly clock: Clock;
  readonly redirects: RedirectServices;
  /** Anonymous links, owned links, import and export (src/links). */
  readonly links: LinkServices;
  /** Users, tokens, workspaces and API keys (src/accounts). */
  readonly accounts: AccountServices;
  readonly singleSignOn?: SingleSignOnServices; // when OIDC_* configures a provider (ADR 0034)
  /** The read side of visits: global counters and per-link roll-ups (src/links/get-*-stats.ts). */
  readonly stats: StatsDeps;
  /** The cleanup job, its scheduler (started by main.ts) and its statistics (src/jobs). */
  readonly cleanup: CleanupJobs;
  /** What the service's operator reads and changes across every workspace (src/admin). */
  readonly admin: AdminServices;
  /** A workspace's webhook endpoints and their deliveries (src/webhooks). */
  readonly webhooks: WebhookServices;
  readonly server: ServerServices;
}

/**
 * The composition root's result: AppDeps for the app and the CLI, plus what only main.ts and tests
 * hold (the database handle, the concrete tiers, the background jobs) and the one `close`.
 */
export interface Composition extends AppDeps {
  readonly database: OpenDatabase;
  readonly store: LinkStore;
  readonly localCache: MemoryLinkCache;
  /** Scaled mode's Redis tier, when REDIS_URL is set. */
  readonly redis?: RedisTier;
  /** The visit buffer and its flusher (started by main.ts), when ANALYTICS_ENABLED. */
  readonly analytics?: VisitPipeline;
  /** The destination health check and its scheduler (started by main.ts when enabled). */
  readonly healthCheck: HealthCheckJobs;
  readonly webhookJobs: WebhookJobs; // delivery and its scheduler, started by main.ts when enabled
  close(): Promise<void>;
}

export interface DepsOptions {
  readonly clock?: Clock;
  /** bcrypt unless given; like the clock, a port a test may replace. */
  readonly passwordHashing?: PasswordHashing;
  /** Called with every SQL statement the database runs (tests count them). */
  readonly onStatement?: (sql: string) => void;
  /** Start-up and background problems (a database not reachable yet, an idle connection lost). */
  readonly logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Log lines the process's log destination dropped (exported by /metrics). */
  readonly droppedLogLines?: () => number;
  /** How long to wait for an unreachable PostgreSQL before giving up with one line (the CLI); the server waits without limit. */
  readonly reachWithinMs?: number;
}

/**
 * Opens the database and brings its schema up to date. pg and ioredis are loaded only in the
 * scaled mode (dynamic imports here and below): the embedded mode does not carry them.
 */
async function openMigratedDatabase(config: Config, options: DepsOptions): Promise<OpenDatabase> {
  if (config.database.kind === 'sqlite') {
    const database = openSqlite(config.database.path, { onStatement: options.onStatement, writeTimeoutMs: config.dbWriteTimeoutMs });
    return closedOnFailure(database, () => migrateToLatest(database.db, database.dialect).then(() => database));
  }
  const { openPostgres } = await import('./storage/postgres-database.js');
  const { migrateWhenReachable } = await import('./storage/migrate-when-reachable.js');
  const { url } = config.database;
  const database = openPostgres(url, {
      poolMax: config.dbPoolMax,
      poolMin: config.dbPoolMin,
      statementTimeoutMs: config.dbStatementTimeoutMs,
      connectTimeoutMs: config.dbConnectTimeoutMs,
      onStatement: options.onStatement,
      onIdleError: (error) => options.logger?.warn({ err: error }, 'a pooled PostgreSQL connection failed; it is replaced on next use'),
  });
  return closedOnFailure(database, () => migrateWhenReachable(database, url, options.logger, options.reachWithinMs).then(() => database));
}

/** The step's result; when it fails, the database is closed before the error goes on. */
async function closedOnFailure<T>(database: OpenDatabase, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** The links module's bag: every family shares the link store, the cache invalidation and the URL policy. */
function buildLinkServices(
  config: Config, database: OpenDatabase,
  shared: { store: LinkStore; cache: CacheInvalidation; clock: Clock; workspaces: WorkspaceAccess; passwords: LinkPasswordHashing; domains: CustomDomains },
): LinkServices {
  const { store, cache, clock, workspaces, passwords, domains } = shared;
  const urlPolicy = { ...buildUrlPolicy(config), isCustomDomain: (hostname: string) => domains.hosts.find(hostname) !== undefined };
  const domain = DEFAULT_DOMAIN;
  return {
    anonymous: { store, cache, clock, urlPolicy, domain, anonTtlMs: config.links.anonTtlMs, anonCodeLength: config.links.anonCodeLength },
    owned: { store, tags: new KyselyTagStore(database.db), domains: domains.store, cache, clock, urlPolicy, domain, codeLength: config.links.codeLength, workspaces, passwords },
    // An import's batches are background work (ADR 0023): creates and deletes go first.
    transfer: { transfer: new KyselyLinkTransferStore(database.backgroundDb), hosts: domains.hosts, cache, clock, urlPolicy, domain, workspaces },
    domains: buildDomainServices(config, domains, { clock, workspaces, urlPolicy }),
  };
}

function buildCleanupJobs(
  config: Config, database: OpenDatabase, shared: { clock: Clock; cache: CacheInvalidation; metrics?: PrometheusMetrics },
): CleanupJobs {
  return createCleanupJobs({
    settings: config.cleanup,
    ...shared,
    // Background work (ADR 0023): on SQLite its batches run on the writer thread, off the redirect
    // event loop, behind the writes that answer clients and with no deadline in the queue.
    lockStore: new KyselyJobLockStore(database.backgroundDb),
    cleanupStore: new KyselyCleanupStore(database.backgroundDb, database.dialect),
    runStore: new KyselyCleanupRunStore(database.backgroundDb),
  });
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<Composition> {
  const clock = options.clock ?? systemClock;
  const database = await openMigratedDatabase(config, options);
  const accounts = await closedOnFailure(database, () => createAccountServices(config, new KyselyAccountStore(database.db), clock, options.passwordHashing));
  const store = new KyselyLinkStore(database.db, database.embedded);
  const localCache = buildLocalCache(config, clock);
  const follower = followOtherProcesses(config, localCache);
  const redis = config.redisUrl
    ? (await import('./cache/redis-tier.js')).openRedisTier(config, config.redisUrl, localCache, options.logger)
    : undefined;
  const cache = new CacheInvalidation(localCache, redis?.invalidation);
  const metrics = config.metrics.enabled ? new PrometheusMetrics({
    clock, database: database.usage, cachedLinks: () => localCache.size, droppedLogLines: options.droppedLogLines,
    visits: config.analytics.enabled ? () => analytics!.buffer : undefined,
  }) : undefined;
  const cleanup = buildCleanupJobs(config, database, { clock, cache, metrics });
  const placeOf = placeLookupFor(config.analytics);
  const analytics = config.analytics.enabled
    ? createVisitPipeline(config.analytics, visitWriterFor(database), clock, options.logger, placeOf, new KyselyVisitorSaltStore(database.backgroundDb),
      webhookClicksOf(database, clock, options.logger)) : undefined;
  const salts = analytics?.salts;
  const healthCheck = buildHealthCheckJobs(config, database, clock);
  const domains = await buildCustomDomains(database.db, options.logger);
  const { webhookJobs, webhooks } = buildWebhooks(config, database, clock, accounts.workspaces, domains.hosts);
  const links = buildLinkServices(config, database, { store, cache, clock, workspaces: accounts.workspaces, passwords: accounts.hasher, domains });
  const stats = buildStats(database, clock, links.owned);
  const blocklist = { file: config.links.blocklistFile ?? null, domains: links.owned.urlPolicy.blockedDomains };
  return {
    config,
    clock,
    redirects: { resolver: new LinkResolver({ store, local: localCache, shared: redis?.cache, clock, metrics }), domain: DEFAULT_DOMAIN, hosts: domains.hosts, recordVisit: analytics?.buffer.record,
      clickLimits: new KyselyClickLimitStore(database.db),
      countryOf: countryLookupFor(placeOf, config.analytics.geoipDatabase), saltOf: salts && ((day) => salts.saltOf(day)) },
    links,
    accounts, singleSignOn: buildSingleSignOn(config, database.db, accounts, options.logger),
    stats,
    cleanup,
    admin: { store: new KyselyOperatorStore(database.db), stats: stats.store, cache, clock, domain: DEFAULT_DOMAIN, blocklist },
    webhooks,
    server: { readiness: store, rateLimitStore: redis?.rateLimitStore, metrics },
    database,
    store,
    localCache,
    redis,
    analytics,
    healthCheck,
    webhookJobs,
    // Before the database closes: the cleanup job finishes its batch, records the run and releases its lock;
    // the health check aborts its checks and releases its lock; the flusher writes what is buffered.
    close: async () => {
      await Promise.all([cleanup.stop(), healthCheck.stop(), webhookJobs.stop()]);
      await analytics?.flusher.stop().catch((error: unknown) => options.logger?.error({ err: error }, 'the last analytics flush failed; its visits are lost'));
      await redis?.close();
      follower?.close();
      domains.hosts.stop();
      await database.close();
    },
  };
}
