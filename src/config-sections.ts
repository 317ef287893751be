import { isIP } from 'node:net';
import path from 'node:path';
import type { Config } from './config-shape.js';
import { parseDuration, type EnvReader } from './config-env-reader.js';
import { readTrustProxy } from './config-trust-proxy.js';
import { readSignIn } from './config-sign-in.js';
import { parseBaseUrl, parseBlocklistFile, parseDatabase, parseFailureRedirectUrl, parseJwt, parseRedisUrl } from './config-values.js';

/**
 * Every variable, its default and its bounds, one section of `Config` at a time; docs/configuration.md
 * and .env.example list the same names and defaults (test/unit/env-example.test.ts).
 */
export function readConfig(read: EnvReader): Omit<Config, 'warnings'> {
  const port = read.int('PORT', 8080, 0, 65535);
  const dataDir = path.resolve(read.string('DATA_DIR', './data'));
  const database = parseDatabase(read, dataDir);
  return {
    env: read.oneOf('NODE_ENV', 'production', ['production', 'development', 'test'] as const),
    port,
    host: read.string('HOST', '127.0.0.1'),
    workers: read.int('WORKERS', 1, 1, 64),
    ...parseBaseUrl(read, port),
    database,
    dataDir,
    redisUrl: parseRedisUrl(read),
    redis: {
      keyPrefix: read.string('REDIS_KEY_PREFIX', 'linkforge:'),
      commandTimeoutMs: read.duration('REDIS_COMMAND_TIMEOUT', '250ms'),
    },
    ...readDatabaseLimits(read),
    logLevel: read.oneOf('LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    trustProxy: readTrustProxy(read),
    shutdownGraceMs: read.duration('SHUTDOWN_GRACE', '10s'),
    jwt: parseJwt(read, database),
    adminEmails: (read.optional('ADMIN_EMAILS') ?? '')
      .split(',').map((email) => email.trim().toLowerCase()).filter(Boolean),
    bcryptCost: read.int('BCRYPT_COST', 12, 4, 31),
    signIn: readSignIn(read),
    links: readLinks(read),
    imports: readImports(read),
    redirect: {
      maxAgeSeconds: read.int('REDIRECT_MAX_AGE', 300),
      permanentStatus: read.oneOf('PERMANENT_REDIRECT_STATUS', 301, [301, 302, 307, 308] as const),
      temporaryStatus: read.oneOf('TEMPORARY_REDIRECT_STATUS', 302, [302, 307] as const),
      notFoundRedirectUrl: parseFailureRedirectUrl(read, 'NOT_FOUND_REDIRECT_URL'),
      expiredRedirectUrl: parseFailureRedirectUrl(read, 'EXPIRED_REDIRECT_URL'),
    },
    cache: readCache(read),
    rateLimit: {
      anonPerMinute: read.int('RATE_LIMIT_ANON', 20),
      authPerMinute: read.int('RATE_LIMIT_AUTH', 10),
      apiPerMinute: read.int('RATE_LIMIT_API', 1000),
      redirectsPerMinute: read.int('RATE_LIMIT_REDIRECTS', 0),
    },
    instance: {
      registrationAllowed: !read.bool('DISALLOW_REGISTRATION', false),
      anonymousLinksAllowed: !read.bool('DISALLOW_ANONYMOUS_LINKS', false),
    },
    cleanup: readCleanup(read),
    analytics: readAnalytics(read),
    healthcheck: readHealthcheck(read),
    webhooks: readWebhooks(read),
    metrics: { enabled: read.bool('METRICS_ENABLED', true), token: read.optional('METRICS_TOKEN') },
    domains: {
      dnsServers: readDnsServers(read),
      challengeHttpPort: read.int('DOMAIN_CHALLENGE_HTTP_PORT', 80, 1, 65535),
      strictHosts: read.bool('STRICT_HOSTS', false),
    },
  };
}

type DatabaseLimits = Pick<Config, 'dbPoolMax' | 'dbPoolMin' | 'dbStatementTimeoutMs' | 'dbConnectTimeoutMs' | 'dbWriteTimeoutMs'>;

function readDatabaseLimits(read: EnvReader): DatabaseLimits {
  return {
    dbPoolMax: read.int('DB_POOL_MAX', 10, 1, 1000),
    dbPoolMin: read.int('DB_POOL_MIN', 2, 0, 1000),
    dbStatementTimeoutMs: read.duration('DB_STATEMENT_TIMEOUT', '5s'),
    dbConnectTimeoutMs: read.duration('DB_CONNECT_TIMEOUT', '3s'),
    dbWriteTimeoutMs: read.duration('DB_WRITE_TIMEOUT', '5s'),
  };
}

function readLinks(read: EnvReader): Config['links'] {
  return {
    anonTtlMs: read.duration('ANON_TTL', '8h'),
    anonCodeLength: read.int('ANON_CODE_LENGTH', 7, 4, 64),
    codeLength: read.int('CODE_LENGTH', 10, 4, 22),
    maxUrlLength: read.int('MAX_URL_LENGTH', 4096, 16, 65536),
    allowPrivateDestinations: read.bool('ALLOW_PRIVATE_DESTINATIONS', false),
    blocklistFile: parseBlocklistFile(read),
    importMaxBytes: read.int('IMPORT_MAX_BYTES', 50 * 1024 * 1024, 1024, 2 ** 40),
  };
}

function readImports(read: EnvReader): Config['imports'] {
  return {
    maxRows: read.int('IMPORT_MAX_ROWS', 500_000, 1),
    maxRowBytes: read.int('IMPORT_MAX_ROW_BYTES', 1024 * 1024, 1024, 2 ** 30),
    maxFields: read.int('IMPORT_MAX_FIELDS', 64, 2, 10_000),
    perMinute: read.int('RATE_LIMIT_IMPORT', 6),
    maxRunningPerUser: read.int('IMPORT_MAX_RUNNING_PER_USER', 1, 1, 1000),
    maxRunning: read.int('IMPORT_MAX_RUNNING', 2, 1, 1000),
    uploadIdleTimeoutMs: read.duration('IMPORT_UPLOAD_IDLE_TIMEOUT', '10s'),
  };
}

function readCache(read: EnvReader): Config['cache'] {
  return {
    maxEntries: read.int('CACHE_MAX_ENTRIES', 100_000),
    maxBytes: read.int('CACHE_MAX_BYTES', 16 * 1024 * 1024, 64 * 1024, 2 ** 40),
    linkTtlMs: read.duration('CACHE_TTL', '1h'),
    tombstoneTtlMs: read.duration('CACHE_TOMBSTONE_TTL', '1h'),
    negativeTtlMs: read.duration('CACHE_NEGATIVE_TTL', '60s'),
    localTtlMs: read.duration('CACHE_LOCAL_TTL', '60s'),
  };
}

function readCleanup(read: EnvReader): Config['cleanup'] {
  return {
    enabled: read.bool('CLEANUP_ENABLED', true),
    intervalMs: read.duration('CLEANUP_INTERVAL', '15m'),
    initialDelayMs: read.duration('CLEANUP_INITIAL_DELAY', '1m'),
    lockAtMostMs: read.duration('CLEANUP_LOCK_AT_MOST', '14m'),
    lockAtLeastMs: read.duration('CLEANUP_LOCK_AT_LEAST', '10m'),
    retentionMs: read.duration('CLEANUP_RETENTION', '7d'),
    bufferMs: read.duration('CLEANUP_BUFFER', '1h'),
    batchSize: read.int('CLEANUP_BATCH_SIZE', 1000, 1),
    batchPauseMs: read.duration('CLEANUP_BATCH_PAUSE', '100ms'),
    maxDurationMs: read.duration('CLEANUP_MAX_DURATION', '5m'),
    archive: read.bool('CLEANUP_ARCHIVE', true),
    visitsRetentionMs: read.duration('VISITS_RETENTION', '90d'),
    rollupRetentionMs: read.duration('ROLLUP_RETENTION', '400d'),
    webhookDeliveryRetentionMs: read.duration('WEBHOOK_DELIVERY_RETENTION', '30d'),
  };
}

function readAnalytics(read: EnvReader): Config['analytics'] {
  return {
    enabled: read.bool('ANALYTICS_ENABLED', true),
    flushIntervalMs: read.duration('ANALYTICS_FLUSH_INTERVAL', '1s'),
    flushMaxEvents: read.int('ANALYTICS_FLUSH_MAX_EVENTS', 50_000, 1),
    bufferMax: read.int('ANALYTICS_BUFFER_MAX', 100_000, 1),
    privacy: read.oneOf('ANALYTICS_PRIVACY', 'standard', ['standard', 'strict'] as const),
    geoipDatabase: read.optional('GEOIP_DATABASE'),
  };
}

function readHealthcheck(read: EnvReader): Config['healthcheck'] {
  return {
    enabled: read.bool('HEALTHCHECK_ENABLED', true),
    intervalMs: read.duration('HEALTHCHECK_INTERVAL', '6h'),
    addressIntervalMs: read.duration('HEALTHCHECK_ADDRESS_INTERVAL', '1s'),
    addressBudgetMs: read.duration('HEALTHCHECK_ADDRESS_BUDGET', '2m'),
    workspaceBudget: read.int('HEALTHCHECK_WORKSPACE_BUDGET', 1000, 1),
  };
}

function readWebhooks(read: EnvReader): Config['webhooks'] {
  const delays = read.string('WEBHOOK_RETRY_DELAYS', '5s,30s,2m,10m,30m,1h').split(',').map((text) => parseDuration(text));
  if (delays.some((delay) => delay === undefined)) read.problems.push('WEBHOOK_RETRY_DELAYS must be durations separated by commas, like 5s,30s,2m,10m');
  return {
    enabled: read.bool('WEBHOOKS_ENABLED', true),
    pollIntervalMs: read.duration('WEBHOOK_POLL_INTERVAL', '1s'),
    retryDelaysMs: delays.every((delay) => delay !== undefined) ? delays as number[] : [5_000],
    giveUpAfterMs: read.duration('WEBHOOK_GIVE_UP_AFTER', '24h'),
    claimTtlMs: read.duration('WEBHOOK_CLAIM_TTL', '30s'),
  };
}

/** DOMAIN_DNS_SERVERS: IP addresses, each optionally with a port (`1.1.1.1`, `127.0.0.1:5353`, `[::1]:53`), as node:dns takes them. */
function readDnsServers(read: EnvReader): string[] {
  const servers = (read.optional('DOMAIN_DNS_SERVERS') ?? '').split(',').map((server) => server.trim()).filter(Boolean);
  const valid = (server: string) => isIP(server) !== 0 || /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]):\d{1,5}$/.test(server);
  const bad = servers.filter((server) => !valid(server));
  if (bad.length > 0) read.problems.push(`DOMAIN_DNS_SERVERS must list IP addresses, each optionally with :port (got "${bad.join(', ')}")`);
  return servers;
}
