import fs from 'node:fs';
import type { Config } from './config.js';
import { parseBlocklist, type UrlPolicy } from './core/canonical-url.js';
import { systemClock, type Clock, type LinkStore } from './core/ports.js';
import { MemoryLinkCache } from './cache/memory-link-cache.js';
import type { CreateAnonymousLinkDeps } from './links/create-anonymous-link.js';
import { LinkResolver } from './links/resolve-link.js';
import { openSqlite, type OpenDatabase } from './storage/database.js';
import { KyselyLinkStore } from './storage/link-store.js';
import { migrateToLatest } from './storage/migrations.js';

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
  close(): Promise<void>;
}

export interface DepsOptions {
  readonly clock?: Clock;
  /** Called with every SQL statement the embedded database runs (tests count them). */
  readonly onStatement?: (sql: string) => void;
}

function openDatabase(config: Config, options: DepsOptions): OpenDatabase {
  if (config.database.kind === 'postgres') {
    throw new Error('PostgreSQL mode is not available in this version yet; unset DATABASE_URL to use the embedded SQLite database.');
  }
  return openSqlite(config.database.path, { onStatement: options.onStatement });
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
  try {
    await migrateToLatest(database.db, database.dialect);
  } catch (error) {
    await database.close();
    throw error;
  }
  const store = new KyselyLinkStore(database.db);
  const cache = new MemoryLinkCache({
    maxEntries: config.cache.maxEntries,
    linkTtlMs: config.cache.linkTtlMs,
    tombstoneTtlMs: config.cache.tombstoneTtlMs,
    negativeTtlMs: config.cache.negativeTtlMs,
  });
  const domain = config.shortDomain;
  const urlPolicy = buildUrlPolicy(config);
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
    close: () => database.close(),
  };
}
