import fs from 'node:fs';
import path from 'node:path';
import ms from 'ms';
import { ConfigError } from './core/config-error.js';

/**
 * The only reader of the environment. Every variable of SPEC section 10 is parsed here, every
 * problem is collected, and start-up fails with all of them listed at once.
 */

export interface Config {
  readonly env: 'production' | 'development' | 'test';
  readonly port: number;
  readonly host: string;
  readonly baseUrl: string;
  /** Host (with port, if any) of BASE_URL: links to it are refused as loops. Links are stored under DEFAULT_DOMAIN. */
  readonly shortDomain: string;
  readonly database: { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string };
  readonly dataDir: string;
  readonly redisUrl: string | undefined;
  readonly redis: {
    /** Prepended to every key and channel (src/cache/cache-keys.ts): deployments can share a Redis. */
    readonly keyPrefix: string;
    /** A Redis command slower than this fails, and the lookup goes on to the database. */
    readonly commandTimeoutMs: number;
  };
  readonly dbPoolMax: number;
  readonly dbPoolMin: number;
  /** PostgreSQL: the longest any statement may run (server side, and the client stops waiting too). */
  readonly dbStatementTimeoutMs: number;
  /** PostgreSQL: the longest a request waits for a connection (from the pool or a new one). */
  readonly dbConnectTimeoutMs: number;
  /** How long a write may wait for the database (a lock held elsewhere) before it is answered 503. */
  readonly dbWriteTimeoutMs: number;
  readonly logLevel: string;
  readonly trustProxy: boolean;
  readonly shutdownGraceMs: number;
  readonly jwt: { readonly secret: string | undefined; readonly ttlMs: number };
  readonly adminEmails: readonly string[];
  readonly bcryptCost: number;
  readonly links: {
    readonly anonTtlMs: number;
    readonly anonCodeLength: number;
    readonly codeLength: number;
    readonly maxUrlLength: number;
    readonly allowPrivateDestinations: boolean;
    readonly blocklistFile: string | undefined;
    /** The largest file `POST /api/v1/workspaces/{id}/imports` accepts (IMPORT_MAX_BYTES). */
    readonly importMaxBytes: number;
  };
  /** Bounds on one import, so that no file can exhaust memory, disk or the event loop (docs/adr/0019). */
  readonly imports: {
    readonly maxRows: number;
    readonly maxRowBytes: number;
    readonly maxFields: number;
    /** Imports a user may start per minute (RATE_LIMIT_IMPORT); `0` = off. */
    readonly perMinute: number;
    readonly maxRunningPerUser: number;
    readonly maxRunning: number;
    /** An upload that sends nothing for this long is answered 408 and its spool removed. */
    readonly uploadIdleTimeoutMs: number;
  };
  readonly redirect: {
    readonly maxAgeSeconds: number;
    readonly permanentStatus: 301 | 302 | 307 | 308;
    readonly temporaryStatus: 302 | 307;
  };
  readonly cache: {
    readonly maxEntries: number;
    readonly linkTtlMs: number;
    readonly tombstoneTtlMs: number;
    readonly negativeTtlMs: number;
    /**
     * Scaled mode: how long an instance keeps a link in its own memory. Short, because another
     * instance's change reaches it only through Redis pub/sub, or not at all without Redis.
     */
    readonly localTtlMs: number;
  };
  readonly rateLimit: { readonly anonPerMinute: number; readonly authPerMinute: number };
  readonly cleanup: {
    readonly enabled: boolean;
    readonly intervalMs: number;
    readonly initialDelayMs: number;
    readonly lockAtMostMs: number;
    readonly lockAtLeastMs: number;
    readonly retentionMs: number;
    readonly bufferMs: number;
    readonly batchSize: number;
    readonly batchPauseMs: number;
    readonly maxDurationMs: number;
    readonly archive: boolean;
    /** Raw visit rows older than this are deleted by the reaper, with the visit facts no visit uses any more; counters stay. */
    readonly visitsRetentionMs: number;
    /** Hourly and daily roll-up rows older than this are deleted by the reaper (ADR 0021). */
    readonly rollupRetentionMs: number;
  };
  readonly analytics: {
    /** Off: redirects record nothing and no flusher runs (the bench compares both). */
    readonly enabled: boolean;
    readonly flushIntervalMs: number;
    readonly flushMaxEvents: number;
    /** Events held in memory at most, waiting or being written; beyond it a redirect's event is dropped and counted. */
    readonly bufferMax: number;
  };
  readonly healthcheck: {
    readonly enabled: boolean;
    readonly intervalMs: number;
    /** Pause between two checks of one address, from the end of one to the start of the next. */
    readonly addressIntervalMs: number;
    /** Time a run spends checking one address before deferring its other links to the next run. */
    readonly addressBudgetMs: number;
    /** Checks a run makes of one workspace's links (anonymous links together) before deferring the rest. */
    readonly workspaceBudget: number;
  };
  /** `GET /metrics` (ADR 0018): off answers 404 and counts nothing; a token makes it require `Authorization: Bearer`. */
  readonly metrics: { readonly enabled: boolean; readonly token: string | undefined };
}

export { ConfigError };

type Env = Readonly<Record<string, string | undefined>>;

/** Parses `250ms`, `2s`, `15m`, `8h`, `7d` or plain milliseconds. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!/^\d+(\.\d+)?\s*(ms|s|m|h|d)$/.test(trimmed)) return undefined;
  const value = ms(trimmed as ms.StringValue);
  return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optional(name: string): string | undefined {
    return this.raw(name);
  }

  int(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max} (got "${text}")`);
      return fallback;
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const text = this.raw(name)?.toLowerCase();
    if (text === undefined) return fallback;
    if (['true', '1', 'yes', 'on'].includes(text)) return true;
    if (['false', '0', 'no', 'off'].includes(text)) return false;
    this.problems.push(`${name} must be true or false (got "${text}")`);
    return fallback;
  }

  duration(name: string, fallback: string): number {
    const text = this.raw(name) ?? fallback;
    const value = parseDuration(text);
    if (value === undefined) {
      this.problems.push(`${name} must be a duration like 250ms, 2s, 15m, 8h, 7d or plain milliseconds (got "${text}")`);
      return parseDuration(fallback) ?? 0;
    }
    return value;
  }

  oneOf<T extends string | number>(name: string, fallback: T, allowed: readonly T[]): T {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    const match = allowed.find((candidate) => String(candidate) === text);
    if (match === undefined) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${text}")`);
      return fallback;
    }
    return match;
  }
}

function isUrl(text: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(text);
    return protocols.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

function parseDatabase(read: EnvReader, dataDir: string): Config['database'] {
  const fallback: Config['database'] = { kind: 'sqlite', path: path.resolve(dataDir, 'linkforge.db') };
  const url = read.optional('DATABASE_URL');
  if (url === undefined) return fallback;
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).trim();
    if (file !== '') return { kind: 'sqlite', path: path.resolve(file) };
    read.problems.push('DATABASE_URL sqlite: needs a file path, like sqlite:./data/linkforge.db');
    return fallback;
  }
  if (/^postgres(ql)?:/.test(url)) {
    if (isUrl(url, ['postgres:', 'postgresql:'])) return { kind: 'postgres', url };
    read.problems.push('DATABASE_URL is not a valid postgres:// URL (expected postgres://user:password@host:port/database)');
    return fallback;
  }
  read.problems.push('DATABASE_URL must start with sqlite: or postgres://');
  return fallback;
}

function parseRedisUrl(read: EnvReader): string | undefined {
  const url = read.optional('REDIS_URL');
  if (url === undefined || isUrl(url, ['redis:', 'rediss:'])) return url;
  read.problems.push('REDIS_URL is not a valid redis:// or rediss:// URL (expected redis://host:port)');
  return undefined;
}

/** Checked here, not when the file is read, so that a missing file is listed with the other problems. */
function parseBlocklistFile(read: EnvReader): string | undefined {
  const name = read.optional('BLOCKLIST_FILE');
  if (name === undefined) return undefined;
  const file = path.resolve(name);
  try {
    if (!fs.statSync(file).isFile()) throw new Error('not a file');
    fs.accessSync(file, fs.constants.R_OK);
    return file;
  } catch {
    read.problems.push(`BLOCKLIST_FILE must name a readable file (got "${name}")`);
    return undefined;
  }
}

function parseBaseUrl(read: EnvReader, port: number): { baseUrl: string; shortDomain: string } {
  const text = read.string('BASE_URL', `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    if (url.pathname !== '/' || url.search || url.hash) throw new Error('path');
    return { baseUrl: `${url.protocol}//${url.host}`, shortDomain: url.host };
  } catch {
    read.problems.push(`BASE_URL must be an http(s) origin without a path, like https://sho.rt (got "${text}")`);
    return { baseUrl: `http://localhost:${port}`, shortDomain: `localhost:${port}` };
  }
}

function parseJwt(read: EnvReader, database: Config['database']): Config['jwt'] {
  const secret = read.optional('JWT_SECRET');
  if (secret !== undefined && secret.length < 32) {
    read.problems.push('JWT_SECRET must be at least 32 characters long');
  }
  if (secret === undefined && database.kind === 'postgres') {
    read.problems.push('JWT_SECRET is required with PostgreSQL (instances must share one secret)');
  }
  return { secret, ttlMs: read.duration('JWT_TTL', '24h') };
}

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const port = read.int('PORT', 8080, 0, 65535);
  const dataDir = path.resolve(read.string('DATA_DIR', './data'));
  const database = parseDatabase(read, dataDir);
  const config: Config = {
    env: read.oneOf('NODE_ENV', 'production', ['production', 'development', 'test'] as const),
    port,
    host: read.string('HOST', '127.0.0.1'),
    ...parseBaseUrl(read, port),
    database,
    dataDir,
    redisUrl: parseRedisUrl(read),
    redis: {
      keyPrefix: read.string('REDIS_KEY_PREFIX', 'linkforge:'),
      commandTimeoutMs: read.duration('REDIS_COMMAND_TIMEOUT', '250ms'),
    },
    dbPoolMax: read.int('DB_POOL_MAX', 10, 1, 1000),
    dbPoolMin: read.int('DB_POOL_MIN', 2, 0, 1000),
    dbStatementTimeoutMs: read.duration('DB_STATEMENT_TIMEOUT', '5s'),
    dbConnectTimeoutMs: read.duration('DB_CONNECT_TIMEOUT', '3s'),
    dbWriteTimeoutMs: read.duration('DB_WRITE_TIMEOUT', '5s'),
    logLevel: read.oneOf('LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    trustProxy: read.bool('TRUST_PROXY', false),
    shutdownGraceMs: read.duration('SHUTDOWN_GRACE', '10s'),
    jwt: parseJwt(read, database),
    adminEmails: (read.optional('ADMIN_EMAILS') ?? '')
      .split(',').map((email) => email.trim().toLowerCase()).filter(Boolean),
    bcryptCost: read.int('BCRYPT_COST', 12, 4, 31),
    links: {
      anonTtlMs: read.duration('ANON_TTL', '8h'),
      anonCodeLength: read.int('ANON_CODE_LENGTH', 7, 4, 64),
      codeLength: read.int('CODE_LENGTH', 10, 4, 22),
      maxUrlLength: read.int('MAX_URL_LENGTH', 4096, 16, 65536),
      allowPrivateDestinations: read.bool('ALLOW_PRIVATE_DESTINATIONS', false),
      blocklistFile: parseBlocklistFile(read),
      importMaxBytes: read.int('IMPORT_MAX_BYTES', 50 * 1024 * 1024, 1024, 2 ** 40),
    },
    imports: {
      maxRows: read.int('IMPORT_MAX_ROWS', 500_000, 1),
      maxRowBytes: read.int('IMPORT_MAX_ROW_BYTES', 1024 * 1024, 1024, 2 ** 30),
      maxFields: read.int('IMPORT_MAX_FIELDS', 64, 2, 10_000),
      perMinute: read.int('RATE_LIMIT_IMPORT', 6),
      maxRunningPerUser: read.int('IMPORT_MAX_RUNNING_PER_USER', 1, 1, 1000),
      maxRunning: read.int('IMPORT_MAX_RUNNING', 2, 1, 1000),
      uploadIdleTimeoutMs: read.duration('IMPORT_UPLOAD_IDLE_TIMEOUT', '10s'),
    },
    redirect: {
      maxAgeSeconds: read.int('REDIRECT_MAX_AGE', 300),
      permanentStatus: read.oneOf('PERMANENT_REDIRECT_STATUS', 301, [301, 302, 307, 308] as const),
      temporaryStatus: read.oneOf('TEMPORARY_REDIRECT_STATUS', 302, [302, 307] as const),
    },
    cache: {
      maxEntries: read.int('CACHE_MAX_ENTRIES', 100_000),
      linkTtlMs: read.duration('CACHE_TTL', '1h'),
      tombstoneTtlMs: read.duration('CACHE_TOMBSTONE_TTL', '1h'),
      negativeTtlMs: read.duration('CACHE_NEGATIVE_TTL', '60s'),
      localTtlMs: read.duration('CACHE_LOCAL_TTL', '60s'),
    },
    rateLimit: {
      anonPerMinute: read.int('RATE_LIMIT_ANON', 20),
      authPerMinute: read.int('RATE_LIMIT_AUTH', 10),
    },
    cleanup: {
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
    },
    analytics: {
      enabled: read.bool('ANALYTICS_ENABLED', true),
      flushIntervalMs: read.duration('ANALYTICS_FLUSH_INTERVAL', '1s'),
      flushMaxEvents: read.int('ANALYTICS_FLUSH_MAX_EVENTS', 50_000, 1),
      bufferMax: read.int('ANALYTICS_BUFFER_MAX', 100_000, 1),
    },
    healthcheck: {
      enabled: read.bool('HEALTHCHECK_ENABLED', true),
      intervalMs: read.duration('HEALTHCHECK_INTERVAL', '6h'),
      addressIntervalMs: read.duration('HEALTHCHECK_ADDRESS_INTERVAL', '1s'),
      addressBudgetMs: read.duration('HEALTHCHECK_ADDRESS_BUDGET', '2m'),
      workspaceBudget: read.int('HEALTHCHECK_WORKSPACE_BUDGET', 1000, 1),
    },
    metrics: { enabled: read.bool('METRICS_ENABLED', true), token: read.optional('METRICS_TOKEN') },
  };
  if (config.cleanup.rollupRetentionMs < 86_400_000) {
    read.problems.push('ROLLUP_RETENTION must be at least 1d (a shorter one would delete the roll-ups of the day being counted)');
  }
  if (config.cleanup.lockAtLeastMs > config.cleanup.lockAtMostMs) {
    read.problems.push('CLEANUP_LOCK_AT_LEAST must not be longer than CLEANUP_LOCK_AT_MOST');
  }
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
