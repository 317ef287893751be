import fs from 'node:fs';
import type { Config } from './config.js';
import { parseBlocklist, type UrlPolicy } from './core/canonical-url.js';
import type { Clock } from './core/ports.js';
import { MemoryLinkCache } from './cache/memory-link-cache.js';
import { SqliteChangeFollower } from './storage/sqlite-change-follower.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from './storage/schema.js';
import { KyselyDomainStore } from './storage/domain-store.js';
import { KnownHosts } from './links/domains/known-hosts.js';
import type { DomainServices } from './links/domains/domain-services.js';
import { domainChallenges } from './jobs/domain-challenge.js';

/** The composition root's adapter builders that read configuration only (src/deps.ts uses them). */

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
