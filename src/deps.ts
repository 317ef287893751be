import fs from 'node:fs';
import { ConfigError, type Config } from './config.js';
import { parseBlocklist, type UrlPolicy } from './core/canonical-url.js';
import { systemClock, type Clock, type LinkStore } from './core/ports.js';
import { DEFAULT_DOMAIN } from './core/link.js';
import { MemoryLinkCache } from './cache/memory-link-cache.js';
import type { CreateAnonymousLinkDeps } from './links/create-anonymous-link.js';
import { LinkResolver } from './links/resolve-link.js';
import type { OwnedLinkDeps } from './links/link-access.js';
import { openSqlite, type OpenDatabase } from './storage/database.js';
import { KyselyLinkStore } from './storage/link-store.js';
import { createCleanupJobs, type CleanupJobs } from './jobs/cleanup-jobs.js';
import { KyselyCleanupRunStore } from './storage/cleanup-run-store.js';
import { KyselyJobLockStore } from './storage/job-lock-store.js';
import { KyselyReaperStore } from './storage/reaper-store.js';
import { migrateToLatest } from './storage/migrations.js';
import { createAccountServices, type AccountServices } from './accounts/account-services.js';
import type { WorkspaceAccess } from './accounts/workspace-access.js';
import { KyselyAccountStore } from './storage/account-store.js';

/** Everything the app and the jobs need, built once from the configuration. */
export interface AppDeps {
  readonly config: Config;
  readonly clock: Clock;
  readonly database: OpenDatabase;
  readonly store: LinkStore;
  readonly cache: MemoryLinkCache;
  readonly resolver: LinkResolver;
  readonly urlPolicy: UrlPolicy;
  readonly links: CreateAnonymousLinkDeps;
  /** The reaper, its scheduler (started by main.ts) and its statistics (src/jobs). */
  readonly cleanup: CleanupJobs;
  /** Users, tokens, workspaces and API keys (src/accounts). */
  readonly accounts: AccountServices;
  /** Who may act in which workspace; the same object as `accounts.workspaces`. */
  readonly workspaces: WorkspaceAccess;
  /** Owned links: create, manage, list, claim (src/links). */
  readonly ownedLinks: OwnedLinkDeps;
  close(): Promise<void>;
}

export interface DepsOptions {
  readonly clock?: Clock;
  /** Called with every SQL statement the embedded database runs (tests count them). */
  readonly onStatement?: (sql: string) => void;
}

function openDatabase(config: Config, options: DepsOptions): OpenDatabase {
  if (config.database.kind === 'postgres') {
    throw new ConfigError(['DATABASE_URL: PostgreSQL mode is not available in this version yet; unset DATABASE_URL to use the embedded SQLite database']);
  }
  return openSqlite(config.database.path, { onStatement: options.onStatement, writeTimeoutMs: config.dbWriteTimeoutMs });
}

function buildUrlPolicy(config: Config): UrlPolicy {
  const blocklist = config.links.blocklistFile;
  return {
    maxLength: config.links.maxUrlLength,
    shortHosts: [new URL(config.baseUrl).hostname],
    allowPrivate: config.links.allowPrivateDestinations,
    blockedDomains: blocklist ? parseBlocklist(fs.readFileSync(blocklist, 'utf8')) : new Set(),
  };
}

export async function createDeps(config: Config, options: DepsOptions = {}): Promise<AppDeps> {
  const clock = options.clock ?? systemClock;
  const database = openDatabase(config, options);
  let accounts: AccountServices;
  try {
    await migrateToLatest(database.db, database.dialect);
    accounts = await createAccountServices(config, new KyselyAccountStore(database.db), clock);
  } catch (error) {
    await database.close();
    throw error;
  }
  const store = new KyselyLinkStore(database.db, database.embedded);
  const cache = new MemoryLinkCache({
    maxEntries: config.cache.maxEntries,
    linkTtlMs: config.cache.linkTtlMs,
    tombstoneTtlMs: config.cache.tombstoneTtlMs,
    negativeTtlMs: config.cache.negativeTtlMs,
    clock,
  });
  const domain = DEFAULT_DOMAIN;
  const urlPolicy = buildUrlPolicy(config);
  const cleanup = createCleanupJobs({
    settings: config.cleanup,
    clock,
    lockStore: new KyselyJobLockStore(database.db),
    // On SQLite the batches' statements run on the writer thread, off the redirect event loop.
    reaperStore: new KyselyReaperStore(database.db),
    runStore: new KyselyCleanupRunStore(database.db),
    cache,
  });
  return {
    config,
    clock,
    database,
    store,
    cache,
    resolver: new LinkResolver({ store, cache, clock, domain }),
    urlPolicy,
    links: {
      store, cache, clock, urlPolicy, domain,
      anonTtlMs: config.links.anonTtlMs,
      anonCodeLength: config.links.anonCodeLength,
    },
    accounts,
    workspaces: accounts.workspaces,
    ownedLinks: {
      store, cache, clock, urlPolicy, domain,
      codeLength: config.links.codeLength,
      workspaces: accounts.workspaces,
    },
    cleanup,
    // The reaper finishes its batch, records the run and releases its lock before the database closes.
    close: async () => {
      await cleanup.stop();
      await database.close();
    },
  };
}
