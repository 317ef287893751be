import { EnvReader, type Env } from './config-env-reader.js';
import type { Config } from './config-shape.js';
import { readConfig } from './config-sections.js';
import { lookalikeWarnings } from './config-lookalikes.js';
import { ConfigError, DataPathError } from './core/config-error.js';
import { readMcpConfig, type McpConfig } from './config-mcp.js';

export type { Config } from './config-shape.js';
export type { McpConfig } from './config-mcp.js';

export { ConfigError, DataPathError };

/** `sqlite /path/to/file.db` or `postgres host:port/database`, for the ready line: never the user name or password. */
export function describeDatabase(database: Config['database']): string {
  if (database.kind === 'sqlite') return `sqlite ${database.path}`;
  const url = new URL(database.url);
  return `postgres ${url.host}${url.pathname}`;
}

/**
 * The only reader of the environment. Every variable docs/configuration.md lists is
 * read here (config-sections.ts), every problem is collected, and start-up fails with all of them
 * listed at once.
 */
export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const config = readConfig(read);
  if (config.cleanup.rollupRetentionMs < 86_400_000) {
    read.problems.push('ROLLUP_RETENTION must be at least 1d (a shorter one would delete the roll-ups of the day being counted)');
  }
  if (config.cleanup.lockAtLeastMs > config.cleanup.lockAtMostMs) {
    read.problems.push('CLEANUP_LOCK_AT_LEAST must not be longer than CLEANUP_LOCK_AT_MOST');
  }
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return deepFreeze({ ...config, warnings: lookalikeWarnings(env, read.known) });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * `linkforge mcp`'s settings (LINKFORGE_URL, LINKFORGE_API_KEY, LINKFORGE_WORKSPACE_ID): a client of a
 * running Linkforge, it reads none of the server's (ADR 0033).
 */
export function loadMcpConfig(env: Env = process.env): McpConfig {
  const read = new EnvReader(env);
  const config = readMcpConfig(read);
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return Object.freeze(config);
}
