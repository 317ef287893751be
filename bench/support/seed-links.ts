/**
 * Seeding straight into the SQLite file (one prepared insert in one transaction: a million rows
 * take seconds, where the API would take minutes), or into a PostgreSQL database (seedPostgres).
 * The schema comes from the app's own migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { DEFAULT_DOMAIN } from '../../src/core/link.js';
import { createDeps } from '../../src/deps.js';
import { RedirectResponder } from '../../src/http/redirect-responder.js';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function codeFrom(random: () => number, length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += BASE58[Math.floor(random() * 58)];
  return code;
}

/** Only codes the redirect fast path takes (reserved words are not short codes). */
export const isShortCode = (code: string) => RedirectResponder.codeOf(`/${code}`) === code;

export interface SeededLink {
  readonly code: string;
  readonly url: string;
  /** null: PERMANENT; else TEMPORARY, expiring then (in the past for links the reaper should take). */
  readonly expiresAt: number | null;
}

/** `count` links with distinct random codes of `codeLength`; `expiresAt(i)` decides each one's expiry. */
export function makeLinks(count: number, codeLength: number, random: () => number, expiresAt: (i: number) => number | null): SeededLink[] {
  const seen = new Set<string>();
  const links: SeededLink[] = [];
  while (links.length < count) {
    const code = codeFrom(random, codeLength);
    if (seen.has(code) || !isShortCode(code)) continue;
    seen.add(code);
    const i = links.length;
    links.push({ code, url: `https://example.com/articles/${i}/${code.toLowerCase()}?utm_source=bench&n=${i}`, expiresAt: expiresAt(i) });
  }
  return links;
}

/** The columns the seeders fill, and one link's values for them: ACTIVE, anonymous, unowned. */
const SEED_COLUMNS = ['domain', 'code', 'original_url', 'normalized_url', 'link_type', 'status', 'created_at', 'updated_at', 'expires_at'] as const;

function seedValues(domain: string, link: SeededLink, now: number): (string | number | null)[] {
  const type = link.expiresAt === null ? 'PERMANENT' : 'TEMPORARY';
  return [domain, link.code, link.url, link.url, type, 'ACTIVE', now, now, link.expiresAt];
}

export function seedDatabase(file: string, domain: string, links: readonly SeededLink[]): void {
  const db = new SQLite(file);
  try {
    const now = Date.now();
    const insert = db.prepare(`INSERT INTO links (${SEED_COLUMNS.join(', ')}) VALUES (${SEED_COLUMNS.map(() => '?').join(', ')})`);
    db.transaction(() => {
      for (const link of links) insert.run(...seedValues(domain, link, now));
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.exec('ANALYZE');
  } finally {
    db.close();
  }
}

/**
 * The same links into a PostgreSQL database the app's migrations have made: one INSERT … SELECT
 * FROM unnest(…) per 10,000 links (one array parameter a column), then ANALYZE.
 */
export async function seedPostgres(url: string, domain: string, links: readonly SeededLink[]): Promise<void> {
  const types = ['text', 'text', 'text', 'text', 'text', 'text', 'bigint', 'bigint', 'bigint'];
  const arrays = types.map((type, i) => `$${i + 1}::${type}[]`).join(', ');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const now = Date.now();
    for (let start = 0; start < links.length; start += 10_000) {
      const rows = links.slice(start, start + 10_000).map((link) => seedValues(domain, link, now));
      await client.query(`INSERT INTO links (${SEED_COLUMNS.join(', ')}) SELECT * FROM unnest(${arrays})`, SEED_COLUMNS.map((_, c) => rows.map((row) => row[c])));
    }
    await client.query('ANALYZE links');
  } finally {
    await client.end();
  }
}

/**
 * Creates the database through the app's migrations and answers the `domain` key the app stores
 * default-domain links under, learnt from one link created through the API (then deleted).
 * That is DEFAULT_DOMAIN once storage keys links by it (issue 7 item 7); before, the BASE_URL host.
 */
export async function prepareDatabase(config: Config): Promise<string> {
  if (config.database.kind !== 'sqlite') throw new Error('the bench needs the embedded SQLite database');
  const deps = await createDeps(config);
  const app = await buildApp(deps);
  try {
    const response = await app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/domain-probe' } });
    if (response.statusCode !== 201) throw new Error(`creating the probe link answered ${response.statusCode}: ${response.body}`);
  } finally {
    await app.close();
    await deps.close();
  }
  const db = new SQLite(config.database.path);
  try {
    const row = db.prepare('SELECT domain FROM links').get() as { domain: string };
    db.prepare('DELETE FROM links').run();
    if (row.domain !== DEFAULT_DOMAIN) console.error(`  note: this build stores default-domain links under "${row.domain}", not DEFAULT_DOMAIN "${DEFAULT_DOMAIN}"; seeding under "${row.domain}"`);
    return row.domain;
  } finally {
    db.close();
  }
}

/** `count` items drawn without repeats, in random order (a partial Fisher–Yates shuffle). */
export function pick<T>(items: readonly T[], count: number, random: () => number): T[] {
  const copy = items.slice();
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}

/** Writes one item a line (code lists for the load generators) and answers the file's path. */
export function writeLines(dir: string, name: string, lines: readonly string[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
