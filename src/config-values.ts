import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config-shape.js';
import type { EnvReader } from './config-env-reader.js';

/** The variables whose value is more than a number or a word: URLs, files, and the secret that depends on the database. */

function isUrl(text: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(text);
    return protocols.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

export function parseDatabase(read: EnvReader, dataDir: string): Config['database'] {
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

export function parseRedisUrl(read: EnvReader): string | undefined {
  const url = read.optional('REDIS_URL');
  if (url === undefined || isUrl(url, ['redis:', 'rediss:'])) return url;
  read.problems.push('REDIS_URL is not a valid redis:// or rediss:// URL (expected redis://host:port)');
  return undefined;
}

/** Checked here, not when the file is read, so that a missing file is listed with the other problems. */
export function parseBlocklistFile(read: EnvReader): string | undefined {
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

export function parseBaseUrl(read: EnvReader, port: number): { baseUrl: string; shortDomain: string } {
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

export function parseJwt(read: EnvReader, database: Config['database']): Config['jwt'] {
  const secret = read.optional('JWT_SECRET');
  if (secret !== undefined && secret.length < 32) {
    read.problems.push('JWT_SECRET must be at least 32 characters long');
  }
  if (secret === undefined && database.kind === 'postgres') {
    read.problems.push('JWT_SECRET is required with PostgreSQL (instances must share one secret)');
  }
  return { secret, ttlMs: read.duration('JWT_TTL', '24h') };
}

/** NOT_FOUND_REDIRECT_URL, EXPIRED_REDIRECT_URL: an absolute http(s) URL, sent as a Location header as it is. */
export function parseFailureRedirectUrl(read: EnvReader, name: string): string | undefined {
  const text = read.optional(name);
  if (text === undefined) return undefined;
  if (isUrl(text, ['http:', 'https:']) && !/[\s\u0000-\u001f\u007f]/.test(text)) return new URL(text).href;
  read.problems.push(`${name} must be an absolute http:// or https:// URL, like https://example.com/link-not-found (got "${text}")`);
  return undefined;
}
