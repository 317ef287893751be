/**
 * Seeding straight into the SQLite file (one prepared insert in one transaction: a million rows
 * take seconds, where the API would take minutes). The schema comes from the app's own migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
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

export function seedDatabase(file: string, domain: string, links: readonly SeededLink[]): void {
  const db = new SQLite(file);
  try {
    const now = Date.now();
    const insert = db.prepare(`
      INSERT INTO links (domain, code, original_url, normalized_url, link_type, status,
        workspace_id, owner_id, claim_token_hash, created_at, updated_at, expires_at, deleted_at)
      VALUES (?, ?, ?, ?, ?, 'ACTIVE', NULL, NULL, NULL, ?, ?, ?, NULL)`);
    db.transaction(() => {
      for (const link of links) {
        insert.run(domain, link.code, link.url, link.url, link.expiresAt === null ? 'PERMANENT' : 'TEMPORARY', now, now, link.expiresAt);
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.exec('ANALYZE');
  } finally {
    db.close();
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
