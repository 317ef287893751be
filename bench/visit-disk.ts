/**
 * What a visit costs on disk (ADR 0022). Not part of the test suite.
 *
 *   npx tsx bench/visit-disk.ts
 *   VISIT_DISK_VISITS=200000 VISIT_DISK_LINKS=1000 npx tsx bench/visit-disk.ts
 *
 * For each traffic shape, a fresh SQLite file (the real migrations, 100,000 links seeded), the real
 * composition (`createDeps`), VISIT_DISK_VISITS visits recorded through `analytics.buffer.record` as
 * the redirect responder does, flushed every VISIT_DISK_PER_FLUSH visits (a flush a second at that
 * rate); then a WAL checkpoint, and the bytes of each table and index from SQLite's `dbstat`
 * (pages in use, not the file's free pages) before and after. Shapes:
 *   hot      VISIT_DISK_LINKS (1,000) links, one browser's User-Agent and one Referer, all in one day;
 *   spread   every visit of another link (up to the 100,000), four User-Agents and ten referrers.
 * Prints bytes per visit for each table and index, and the rows each table gained.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { HUMAN_AGENTS } from '../test/fixtures/user-agents.js';
import { envInt } from './support/env.js';
import { makeLinks, prepareDatabase, seedDatabase } from './support/seed-links.js';

const VISITS = envInt('VISIT_DISK_VISITS', 200_000, 1_000);
const HOT_LINKS = envInt('VISIT_DISK_LINKS', 1_000, 1);
const PER_FLUSH = envInt('VISIT_DISK_PER_FLUSH', 20_000, 100);
const LINKS = 100_000;

type Sizes = Map<string, { bytes: number; rows?: number }>;

const TABLES = ['visits', 'visit_ranges', 'visit_facts', 'link_clicks_hourly', 'link_breakdown_daily'];

function sizes(file: string): Sizes {
  const db = new Database(file);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const result: Sizes = new Map();
    for (const row of db.prepare('select name, sum(pgsize - unused) as used, sum(pgsize) as bytes from dbstat group by name').all() as { name: string; bytes: number }[]) {
      result.set(row.name, { bytes: row.bytes });
    }
    for (const table of TABLES) result.get(table)!.rows = (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    return result;
  } finally {
    db.close();
  }
}

async function shape(name: 'hot' | 'spread'): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-visit-disk-'));
  try {
    const config = loadConfig({
      NODE_ENV: 'production', DATA_DIR: dir, BASE_URL: 'http://localhost:8080', LOG_LEVEL: 'warn',
      HEALTHCHECK_ENABLED: 'false', CLEANUP_ENABLED: 'false', ANALYTICS_ENABLED: 'true', ANALYTICS_FLUSH_MAX_EVENTS: String(PER_FLUSH * 2),
    });
    let state = 1;
    const random = () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
    if (config.database.kind !== 'sqlite') throw new Error('the bench needs the embedded SQLite database');
    seedDatabase(config.database.path, await prepareDatabase(config), makeLinks(LINKS, 7, random, () => null));
    const before = sizes(config.database.path);
    const deps = await createDeps(config, {});
    const ids = (await deps.database.db.selectFrom('links').select('id').execute()).map((row) => Number(row.id));
    const hot = Array.from({ length: HOT_LINKS }, () => ids[Math.floor(random() * ids.length)]!);
    const agents = Object.values(HUMAN_AGENTS).slice(0, 4);
    const record = deps.analytics!.buffer.record;
    for (let sent = 0; sent < VISITS;) {
      for (let k = 0; k < PER_FLUSH && sent < VISITS; k++, sent++) {
        if (name === 'hot') record(hot[sent % hot.length]!, 0.05, HUMAN_AGENTS.firefoxLinux, 'https://news.example/post');
        else record(ids[sent % ids.length]!, 0.05, agents[sent % agents.length]!, `https://site${sent % 10}.example/`);
      }
      await deps.analytics!.flusher.flushNow();
    }
    await deps.close();
    const after = sizes(config.database.path);
    report(name, before, after);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function report(name: string, before: Sizes, after: Sizes): void {
  console.log(`\n${name}: ${VISITS.toLocaleString('en-US')} visits${name === 'hot' ? ` to ${HOT_LINKS.toLocaleString('en-US')} links` : ', each of another link'}, ${PER_FLUSH.toLocaleString('en-US')} per flush`);
  let total = 0;
  for (const [object, size] of after) {
    const grown = size.bytes - (before.get(object)?.bytes ?? 0);
    if (grown === 0) continue;
    total += grown;
    const rows = size.rows === undefined ? '' : `, ${(size.rows - (before.get(object)?.rows ?? 0)).toLocaleString('en-US')} rows`;
    console.log(`  ${object.padEnd(34)} ${(grown / VISITS).toFixed(1).padStart(7)} B/visit${rows}`);
  }
  console.log(`  ${'all (pages in use)'.padEnd(34)} ${(total / VISITS).toFixed(1).padStart(7)} B/visit`);
}

await shape('hot');
await shape('spread');
