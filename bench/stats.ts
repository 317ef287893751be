/**
 * Statistics benchmark (issue 9): the read side stays fast over a million visits, on SQLite and on
 * PostgreSQL. Not part of the test suite.
 *
 *   npm run bench:stats            (= npx tsx bench/stats.ts)
 *   STATS_BENCH_VISITS=100000 STATS_BENCH_LINKS=1000 npm run bench:stats   (quick)
 *
 * For each database: a fresh one (a temp SQLite file; a PostgreSQL database of its own on
 * 127.0.0.1, dropped at the end), migrated and served by the real app on 127.0.0.1 (in this
 * process, over a real socket). STATS_BENCH_LINKS links are stored in one user's workspace, then
 * STATS_BENCH_VISITS visits over the last 60 days are written through the write side's own path,
 * `VisitWriter.recordBatch` (visitWriterFor: the writer thread's task on SQLite), in batches of 1,000 (as the flusher does): counters, raw
 * visit rows, hourly and daily roll-ups, the global row. Visits are skewed (link i gets a share
 * falling like a cube root), classed 80 % human, 15 % bot, 5 % preview, from a few dozen
 * referrers (30 % none), browsers, OSes and devices. PostgreSQL is ANALYZEd afterwards, as its
 * autovacuum would; SQLite is not (the app never runs ANALYZE).
 *
 * Then STATS_BENCH_REQUESTS sequential requests each (after a warm-up of 20) on one keep-alive
 * connection: `GET /api/stats` (target < 10 ms), and `GET /api/urls/{id}/stats` over the last 30
 * days (target < 100 ms) for the most visited link, a median one, and the most visited by hour.
 * Prints median and p99.
 *
 * Environment (all optional):
 *   STATS_BENCH_VISITS (1000000), STATS_BENCH_LINKS (10000), STATS_BENCH_REQUESTS (300),
 *   STATS_BENCH_DATABASES (sqlite,postgres), STATS_BENCH_SEED (1)
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Visit, VisitorClass } from '../src/core/visit-ports.js';
import { DEFAULT_DOMAIN } from '../src/core/link.js';
import { createDeps, type Composition } from '../src/deps.js';
import { batchOfVisits } from '../src/core/visit-batch.js';
import { visitWriterFor } from '../src/storage/visits/visit-writer.js';
import { createTestDatabase } from '../test/support/postgres.js';
import { atCleanUp, makeTempDir, runBench } from './support/children.js';
import { envInt, envList, loadAverage } from './support/env.js';
import { request } from './support/http-client.js';
import { seededRandom } from './support/seeded-random.js';

const VISITS = envInt('STATS_BENCH_VISITS', 1_000_000, 1_000);
const LINKS = envInt('STATS_BENCH_LINKS', 10_000, 2);
const REQUESTS = envInt('STATS_BENCH_REQUESTS', 300, 10);
const SEED = envInt('STATS_BENCH_SEED', 1, 0);
const DATABASES = envList('STATS_BENCH_DATABASES', ['sqlite', 'postgres'] as const);
const BATCH = 1_000;
const DAY = 24 * 3_600_000;
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-1';

const REFERRERS = ['news.ycombinator.com', 'www.google.com', 't.co', 'www.reddit.com', 'l.facebook.com', 'lnkd.in', 'duckduckgo.com',
  'www.bing.com', 'mail.google.com', 'github.com', 'stackoverflow.com', 'medium.com', 'dev.to', 'lobste.rs', 'slack.com',
  'teams.microsoft.com', 'discord.com', 'web.whatsapp.com', 'news.google.com', 'www.youtube.com', 'substack.com', 'mastodon.social',
  'bsky.app', 'www.linkedin.com', 'outlook.live.com', 'search.brave.com', 'www.ecosia.org', 'feedly.com', 'app.slack.com', 'example.org'];
const BROWSERS = ['Chrome', 'Safari', 'Firefox', 'Edge', 'Mobile Safari', 'Samsung Internet'];
const OSES = ['Windows', 'Mac OS', 'iOS', 'Android', 'Linux'];
const DEVICES = ['desktop', 'mobile', 'tablet', 'other'];

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');

function pickSkewed<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(items.length * random() ** 2)]!;
}

/** One batch of visits, the way the redirect path classifies them. */
function visitBatch(random: () => number, linkIds: readonly number[], now: number, size: number): Visit[] {
  return Array.from({ length: size }, () => {
    const roll = random();
    const visitorClass: VisitorClass = roll < 0.8 ? 'human' : roll < 0.95 ? 'bot' : 'preview';
    return {
      linkId: linkIds[Math.floor(linkIds.length * random() ** 3)]!,
      visitedAt: now - Math.floor(random() * 60 * DAY),
      latencyMs: 0.2 + random() * random() * 3,
      visitorClass,
      referrerHost: random() < 0.3 ? null : pickSkewed(REFERRERS, random),
      browser: random() < 0.03 ? null : pickSkewed(BROWSERS, random),
      os: random() < 0.03 ? null : pickSkewed(OSES, random),
      device: visitorClass === 'bot' ? 'bot' : pickSkewed(DEVICES, random),
    };
  });
}

interface Target { readonly deps: Composition; readonly port: number; readonly token: string; close(): Promise<void> }

async function startTarget(database: 'sqlite' | 'postgres'): Promise<Target> {
  const dataDir = makeTempDir('linkforge-bench-stats-');
  const env: Record<string, string> = {
    NODE_ENV: 'production', DATA_DIR: dataDir, BASE_URL: 'http://localhost:8080', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0',
    CLEANUP_ENABLED: 'false', HEALTHCHECK_ENABLED: 'false', ANALYTICS_ENABLED: 'false', BCRYPT_COST: '4', RATE_LIMIT_AUTH: '0', RATE_LIMIT_API: '0',
    DATABASE_URL: `sqlite:${path.join(dataDir, 'linkforge.db')}`,
  };
  if (database === 'postgres') {
    const pg = await createTestDatabase('linkforge_bench');
    atCleanUp(() => pg.drop());
    Object.assign(env, { DATABASE_URL: pg.url, JWT_SECRET, DB_POOL_MIN: '0' });
  }
  const deps = await createDeps(loadConfig(env));
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const registered = await request(port, 'POST', '/api/auth/register', { body: { email: 'bench@example.com', password: 'bench-password-1' } });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${registered.body}`);
  const token = (JSON.parse(registered.body) as { token: string }).token;
  return { deps, port, token, close: async () => { await app.close(); await deps.close(); } };
}

/** The user's links, straight through the link store (10,000 creates through the API would only slow the setup). */
async function seedLinks(target: Target): Promise<number[]> {
  const me = JSON.parse((await request(target.port, 'GET', '/api/auth/me', { token: target.token })).body) as { user: { id: number }; workspaces: Array<{ id: number; isPersonal: boolean }> };
  const workspaceId = me.workspaces.find((w) => w.isPersonal)!.id;
  const ids: number[] = [];
  const now = Date.now();
  for (let start = 0; start < LINKS; start += 500) {
    const inserted = await Promise.all(Array.from({ length: Math.min(500, LINKS - start) }, (_, k) => {
      const i = start + k;
      const url = `https://example.com/articles/${i}`;
      return target.deps.store.insertLink({
        domain: DEFAULT_DOMAIN, code: `bench${i}`, originalUrl: url, normalizedUrl: url, linkType: 'PERMANENT',
        workspaceId, ownerId: me.user.id, claimTokenHash: null, createdAt: now - 90 * DAY, expiresAt: null,
      });
    }));
    for (const result of inserted) {
      if (!result.ok) throw new Error(`link not inserted: ${result.conflict}`);
      ids.push(result.link.id);
    }
  }
  return ids;
}

async function seedVisits(target: Target, linkIds: readonly number[]): Promise<number> {
  const store = visitWriterFor(target.deps.database);
  const random = seededRandom(SEED);
  const now = Date.now();
  const started = performance.now();
  for (let done = 0; done < VISITS; done += BATCH) {
    await store.recordBatch(batchOfVisits(visitBatch(random, linkIds, now, Math.min(BATCH, VISITS - done))));
  }
  const seconds = (performance.now() - started) / 1000;
  if (target.deps.database.dialect === 'postgres') await sql`analyze`.execute(target.deps.database.db);
  return seconds;
}

async function rowCounts(target: Target): Promise<string> {
  const { db } = target.deps.database;
  const counts = [];
  for (const table of ['visits', 'link_clicks_hourly', 'link_breakdown_daily'] as const) {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    counts.push(`${table} ${fmtInt(Number(row.n))}`);
  }
  return counts.join(', ');
}

/** Median and p99 of `REQUESTS` sequential GETs on one keep-alive connection, after 20 unmeasured. */
async function measure(port: number, url: string, token?: string): Promise<{ median: number; p99: number; bytes: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = async () => {
    const started = performance.now();
    const answer = await request(port, 'GET', url, { token, agent });
    const ms = performance.now() - started;
    if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}: ${answer.body}`);
    return { ms, bytes: answer.body.length };
  };
  for (let i = 0; i < 20; i++) await once();
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const sample = await once();
    samples.push(sample.ms);
    bytes = sample.bytes;
  }
  agent.destroy();
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, p99: samples[Math.min(samples.length - 1, Math.ceil(samples.length * 0.99) - 1)]!, bytes };
}

async function linkByRank(target: Target, rank: number): Promise<{ id: number; clicks: number }> {
  const row = await target.deps.database.db.selectFrom('links').select(['id', 'redirect_count'])
    .orderBy('redirect_count', 'desc').orderBy('id').offset(rank).limit(1).executeTakeFirstOrThrow();
  return { id: Number(row.id), clicks: Number(row.redirect_count) };
}

async function benchDatabase(database: 'sqlite' | 'postgres'): Promise<void> {
  console.log(`\n== ${database} ==`);
  const target = await startTarget(database);
  try {
    const linkIds = await seedLinks(target);
    const seconds = await seedVisits(target, linkIds);
    console.log(`seeded ${fmtInt(VISITS)} visits over ${fmtInt(LINKS)} links through VisitWriter.recordBatch (the flusher's store path), batches of ${BATCH}: ${seconds.toFixed(1)} s (${fmtInt(VISITS / seconds)} visits/s)`);
    console.log(`rows: ${await rowCounts(target)}`);
    const to = new Date(Math.ceil(Date.now() / DAY) * DAY);
    const from = new Date(to.getTime() - 30 * DAY);
    const range = `from=${from.toISOString()}&to=${to.toISOString()}`;
    const hottest = await linkByRank(target, 0);
    const median = await linkByRank(target, Math.floor(LINKS / 2));
    const cases: Array<[string, string, string | undefined, number]> = [
      ['GET /api/stats', '/api/stats', undefined, 10],
      [`GET /api/urls/{id}/stats, 30 days by day, most visited link (${fmtInt(hottest.clicks)} visits)`, `/api/urls/${hottest.id}/stats?${range}&interval=day`, target.token, 100],
      [`GET /api/urls/{id}/stats, 30 days by day, median link (${fmtInt(median.clicks)} visits)`, `/api/urls/${median.id}/stats?${range}&interval=day`, target.token, 100],
      [`GET /api/urls/{id}/stats, 30 days by hour (720 buckets), most visited link`, `/api/urls/${hottest.id}/stats?${range}&interval=hour`, target.token, 100],
    ];
    for (const [name, url, token, targetMs] of cases) {
      const result = await measure(target.port, url, token);
      const verdict = result.p99 < targetMs ? 'meets' : 'MISSES';
      console.log(`${name}: median ${fmt(result.median)}, p99 ${fmt(result.p99)} over ${REQUESTS} requests (${fmtInt(result.bytes)} bytes) — ${verdict} the < ${targetMs} ms target`);
    }
    await timeCsvExport(target, `/api/urls/${hottest.id}/visits.csv?from=${new Date(to.getTime() - 60 * DAY).toISOString()}&to=${to.toISOString()}`);
  } finally {
    await target.close();
  }
}

/** The CSV export of the most visited link over the 60 days of visits: three whole downloads, the median. */
async function timeCsvExport(target: Target, url: string): Promise<void> {
  const runs: Array<{ ms: number; rows: number; bytes: number }> = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const answer = await request(target.port, 'GET', url, { token: target.token });
    if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}: ${answer.body}`);
    runs.push({ ms: performance.now() - started, rows: answer.body.split('\r\n').length - 2, bytes: answer.body.length });
  }
  runs.sort((a, b) => a.ms - b.ms);
  const { ms, rows, bytes } = runs[1]!;
  console.log(`GET /api/urls/{id}/visits.csv, 60 days, most visited link: ${fmtInt(rows)} rows, ${fmtInt(bytes)} bytes in ${fmt(ms)} (median of 3; ${fmtInt(rows / (ms / 1000))} rows/s)`);
}

await runBench(async () => {
  console.log(`stats bench: ${fmtInt(VISITS)} visits, ${fmtInt(LINKS)} links, ${REQUESTS} requests per case, node ${process.version}, load average ${loadAverage()}`);
  for (const database of DATABASES) await benchDatabase(database);
});
