import fs from 'node:fs';
import type { Config } from './config.js';
import { parseBlocklist, type UrlPolicy } from './core/canonical-url.js';
import type { Clock } from './core/ports.js';
import { MemoryLinkCache } from './cache/memory-link-cache.js';
import { SqliteChangeFollower } from './storage/sqlite-change-follower.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { AccountServices } from './accounts/account-services.js';
import type { SingleSignOnServices } from './accounts/single-sign-on-services.js';
import { KyselyIdentityStore } from './storage/identity-store.js';
import type { Database } from './storage/schema.js';
import { OpenidClientRelyingParty } from './sso/openid-client-relying-party.js';
import type { WorkspaceAccess } from './accounts/workspace-access.js';
import { createWebhookJobs, type WebhookJobs } from './jobs/webhook-jobs.js';
import type { OpenDatabase } from './storage/database.js';
import { KyselyWebhookOutboxStore } from './storage/webhook-outbox-store.js';
import { KyselyWebhookStore } from './storage/webhook-store.js';
import { KyselyWebhookClickStore } from './storage/webhook-click-store.js';
import { clicksOf } from './core/webhook-clicks.js';
import type { VisitBatch } from './core/visit-ports.js';
import type { WebhookServices } from './webhooks/webhook-services.js';
import { createHealthCheckJobs, type HealthCheckJobs } from './jobs/health-check-jobs.js';
import type { StatsDeps } from './links/get-global-stats.js';
import type { OwnedLinkDeps } from './links/link-access.js';
import { KyselyHealthCheckStore } from './storage/health-check-store.js';
import { KyselyJobLockStore } from './storage/job-lock-store.js';
import { KyselyLinkShareStore } from './storage/link-share-store.js';
import { KyselyStatsReadStore } from './storage/stats-read-store.js';
import { KyselyVisitExportStore } from './storage/visit-export-store.js';
import { KyselyDomainStore } from './storage/domain-store.js';
import { KnownHosts } from './links/domains/known-hosts.js';
import { shortUrls } from './core/short-urls.js';
import type { DomainServices } from './links/domains/domain-services.js';
import { domainChallenges } from './jobs/domain-challenge.js';

/** The composition root's adapter builders (src/deps.ts uses them). */

export function buildUrlPolicy(config: Config): UrlPolicy {
  const blocklist = config.links.blocklistFile;
  return {
    maxLength: config.links.maxUrlLength,
    shortHosts: [new URL(config.baseUrl).hostname],
    allowPrivate: config.links.allowPrivateDestinations,
    blockedDomains: blocklist ? parseBlocklist(fs.readFileSync(blocklist, 'utf8')) : new Set(),
  };
}

/** In scaled mode an instance's memory is a short first tier: other instances change links too. */
export function buildLocalCache(config: Config, clock: Clock): MemoryLinkCache {
  const scaled = config.database.kind === 'postgres';
  const local = (ttl: number) => (scaled ? Math.min(ttl, config.cache.localTtlMs) : ttl);
  return new MemoryLinkCache({
    maxEntries: config.cache.maxEntries,
    maxBytes: config.cache.maxBytes,
    linkTtlMs: local(config.cache.linkTtlMs),
    tombstoneTtlMs: local(config.cache.tombstoneTtlMs),
    // With Redis, unknown codes are remembered there only: a code created on another instance
    // then resolves here at once, because the create cleared the shared entry before answering.
    negativeTtlMs: config.redisUrl ? 0 : local(config.cache.negativeTtlMs),
    clock,
  });
}

/**
 * On the embedded database other processes (a second server, the CLI) may write the same file:
 * this process's cache follows their changes (docs/architecture.md, "Several processes on one file").
 */
export function followOtherProcesses(config: Config, localCache: MemoryLinkCache): SqliteChangeFollower | undefined {
  if (config.database.kind !== 'sqlite') return undefined;
  const follower = new SqliteChangeFollower(config.database.path, localCache);
  follower.start();
  return follower;
}

/** Sign-in through the OpenID Connect provider (ADR 0034), when OIDC_* configures one. */
export function buildSingleSignOn(
  config: Config, db: Kysely<Database>, accounts: AccountServices, logger: Pick<Logger, 'warn'> | undefined,
): SingleSignOnServices | undefined {
  const oidc = config.signIn.oidc;
  if (!oidc) return undefined;
  const onProviderError = (error: unknown) => logger?.warn({ err: error }, 'a sign-in step with the OpenID Connect provider failed');
  return {
    accounts, identities: new KyselyIdentityStore(db), relyingParty: new OpenidClientRelyingParty(oidc, onProviderError),
    name: oidc.name, adminGroups: oidc.adminGroups,
  };
}

/**
 * The webhooks module's bag and the delivery job. The job's claims and answers are background
 * work (ADR 0023): on SQLite they wait behind the writes that answer clients.
 */
export function buildWebhooks(
  config: Config, database: OpenDatabase, clock: Clock, workspaces: WorkspaceAccess, hosts: KnownHosts,
): { webhookJobs: WebhookJobs; webhooks: WebhookServices } {
  const webhookJobs = createWebhookJobs({
    settings: config.webhooks, allowPrivateDestinations: config.links.allowPrivateDestinations, clock,
    urls: shortUrls(config.baseUrl, (key) => hosts.hostnameOf(key)),
    outbox: new KyselyWebhookOutboxStore(database.backgroundDb, database.dialect),
  });
  return { webhookJobs, webhooks: { store: new KyselyWebhookStore(database.db), workspaces, clock, checkAddress: webhookJobs.checkAddress } };
}

/**
 * What a finished analytics flush tells the webhooks: its clicks per link, queued as `link.clicked`
 * rows (background work, ADR 0023). A failure is logged and the batch is not reported; it never
 * fails the flush.
 */
export function webhookClicksOf(database: OpenDatabase, clock: Clock, logger?: { warn(details: object, message: string): void }): (batch: VisitBatch) => Promise<void> {
  const store = new KyselyWebhookClickStore(database.backgroundDb);
  return (batch) => store.enqueueClicks(() => clicksOf(batch), clock.now())
    .catch((error: unknown) => logger?.warn({ err: error }, 'the clicks of a flush could not be queued for webhooks'));
}

/** The read side of visits: stats, visit export and share addresses. */
export function buildStats(database: OpenDatabase, clock: Clock, links: OwnedLinkDeps): StatsDeps {
  return {
    store: new KyselyStatsReadStore(database.db), clock, links,
    visits: new KyselyVisitExportStore(database.db), shares: new KyselyLinkShareStore(database.db),
  };
}

/** The destination health check: background work (ADR 0023), like the cleanup job. */
export function buildHealthCheckJobs(config: Config, database: OpenDatabase, clock: Clock): HealthCheckJobs {
  return createHealthCheckJobs({
    settings: config.healthcheck, allowPrivateDestinations: config.links.allowPrivateDestinations, clock,
    lockStore: new KyselyJobLockStore(database.backgroundDb), store: new KyselyHealthCheckStore(database.backgroundDb),
  });
}
/** How often each process reloads the verified custom domains, for changes made by other instances (ADR 0036). */
const HOSTS_REFRESH_MS = 5_000;

export interface CustomDomains {
  readonly store: KyselyDomainStore;
  readonly hosts: KnownHosts;
}

/** The custom domains' store and the in-memory map of verified hosts, loaded and kept fresh (stopped by `hosts.stop()`). */
export async function buildCustomDomains(db: Kysely<Database>, logger?: Pick<Logger, 'warn'>): Promise<CustomDomains> {
  const store = new KyselyDomainStore(db);
  const hosts = new KnownHosts(store, (error) => logger?.warn({ err: error }, 'the custom domains could not be reloaded; the last known ones are served'));
  await hosts.refresh();
  hosts.start(HOSTS_REFRESH_MS);
  return { store, hosts };
}

export function buildDomainServices(config: Config, domains: CustomDomains, shared: Pick<DomainServices, 'clock' | 'workspaces' | 'urlPolicy'>): DomainServices {
  return {
    ...shared, store: domains.store, ownHosts: shared.urlPolicy.shortHosts, changed: () => domains.hosts.refresh(),
    challenges: domainChallenges({ dnsServers: config.domains.dnsServers, allowPrivate: config.links.allowPrivateDestinations, httpPort: config.domains.challengeHttpPort }),
  };
}
