/**
 * Reaper benchmark (ADR 0005: the cleanup never slows redirects). Not part of
 * the test suite.
 *
 *   npm run bench:reaper            (= npx tsx bench/reaper.ts)
 *   REAPER_BENCH_EXPIRED=100000 REAPER_BENCH_LIVE=20000 REAPER_BENCH_SECONDS=8 npm run bench:reaper   (quick)
 *
 * Seeds a temp SQLite file (schema from the real migrations) with REAPER_BENCH_EXPIRED anonymous
 * links that expired between 2 hours and 6 days ago (in id order, as created), still ACTIVE as the
 * redirect path leaves them, interleaved with REAPER_BENCH_LIVE live ones (half permanent, half
 * expiring in the next hours). Starts the real app in this process (createDeps + buildApp + listen
 * on 127.0.0.1:0; the reaper runs in the same process, as in production), warms the LRU with the
 * live codes over HTTP, then drives redirects of the live codes from a separate autocannon process
 * at a fixed rate and, beside them, anonymous creates (`POST /api/urls/public`, one every
 * REAPER_BENCH_CREATE_INTERVAL, from another process, as F-17 says):
 *   baseline      2 windows of redirects alone, then 2 with the creates beside them;
 *   during        one reaper run marks and purges every expired link (CLEANUP_RETENTION 1h, so all
 *                 of them qualify) while windows of redirects and creates follow one another until
 *                 the run ends.
 * Prints the run's time, rows per second, redirect p50/p99 and requests/s in each phase, the p99
 * ratio during the run against the redirects-alone baseline (target ≤ 2) and against the baseline
 * with creates, the creates' own p50/p99 and error count, and whether the purge fits in one
 * CLEANUP_INTERVAL (15 min). Deletes its temp dir when done, also on Ctrl-C.
 *
 * Environment (all optional):
 *   REAPER_BENCH_EXPIRED (1000000), REAPER_BENCH_LIVE (100000)
 *   REAPER_BENCH_SECONDS (10)       seconds per load window
 *   REAPER_BENCH_CONNECTIONS (50)
 *   REAPER_BENCH_RATE (4000)        redirects/s over all connections; 0 = as fast as the server answers
 *                                   (saturated, so latency is mostly queueing behind the reaper's CPU)
 *   REAPER_BENCH_CREATE_INTERVAL (20)   ms between two creates; 0 = no creates
 *   REAPER_BENCH_BATCH_SIZE (1000), REAPER_BENCH_PAUSE (100ms)   the reaper's CLEANUP_BATCH_SIZE / _PAUSE
 *   REAPER_BENCH_ARCHIVE (true)     CLEANUP_ARCHIVE
 *   REAPER_BENCH_MARKED (false)     seed the expired links as EXPIRED already (skips the mark phase)
 *   REAPER_BENCH_CACHE (true)       false: CACHE_MAX_ENTRIES=0, every redirect reads SQLite
 */
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import type { CleanupRunReport } from '../src/jobs/cleanup-job.js';
import { makeTempDir, runBench } from './support/children.js';
import { envBool, envInt } from './support/env.js';
import { prime } from './support/http-client.js';
import { load } from './support/load.js';
import { createsOf, fmt, printLoadTable, redirectsOf, runUnderLoad, type RunTiming, type Window } from './support/load-windows.js';
import { prepareDatabase, writeLines } from './support/seed-links.js';
import { seededRandom } from './support/seeded-random.js';
import { appSettings } from './support/servers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const INTERVAL_MS = 15 * 60_000;

const EXPIRED = envInt('REAPER_BENCH_EXPIRED', 1_000_000, 0);
const LIVE = envInt('REAPER_BENCH_LIVE', 100_000, 100);
const SECONDS = envInt('REAPER_BENCH_SECONDS', 10, 1);
const CONNECTIONS = envInt('REAPER_BENCH_CONNECTIONS', 50, 1);
/** Requests per second over all connections; 0 drives the server as fast as it answers. */
const RATE = envInt('REAPER_BENCH_RATE', 4000, 0);
const CREATE_INTERVAL_MS = envInt('REAPER_BENCH_CREATE_INTERVAL', 20, 0);
const BATCH_SIZE = envInt('REAPER_BENCH_BATCH_SIZE', 1000, 1);
const PAUSE = process.env.REAPER_BENCH_PAUSE?.trim() || '100ms';
const ARCHIVE = envBool('REAPER_BENCH_ARCHIVE', true);
const PREMARKED = envBool('REAPER_BENCH_MARKED', false);
const CACHE = envBool('REAPER_BENCH_CACHE', true);
/** A few connections, so that one slow create does not hold back the next one's schedule. */
const CREATE_CONNECTIONS = 4;

function settings(dataDir: string) {
  return appSettings(dataDir, {
    BASE_URL: 'http://sho.rt',
    CLEANUP_ENABLED: 'false', // the run is started by hand, when the load starts
    CLEANUP_RETENTION: '1h',
    CLEANUP_BUFFER: '1h',
    CLEANUP_BATCH_SIZE: String(BATCH_SIZE),
    CLEANUP_BATCH_PAUSE: PAUSE,
    CLEANUP_MAX_DURATION: '14m',
    CLEANUP_ARCHIVE: String(ARCHIVE),
    CACHE_MAX_ENTRIES: CACHE ? String(LIVE + 10_000) : '0',
    RATE_LIMIT_ANON: '0', // the creates come from one address
  });
}

function seed(file: string, domain: string, now: number): string[] {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(`insert into links (domain, code, original_url, normalized_url, link_type, status, workspace_id,
    owner_id, claim_token_hash, created_at, updated_at, expires_at, deleted_at) values (?, ?, ?, ?, ?, ?, null, null, ?, ?, ?, ?, null)`);
  const random = seededRandom(4);
  const liveCodes: string[] = [];
  const total = EXPIRED + LIVE;
  let expiredLeft = EXPIRED;
  let liveLeft = LIVE;
  const chunk = db.transaction((count: number) => {
    for (let i = 0; i < count; i++) {
      const live = random() * (expiredLeft + liveLeft) < liveLeft;
      const n = total - expiredLeft - liveLeft;
      const code = `${live ? 'L' : 'x'}${n.toString(36).padStart(6, '0')}`;
      const url = `https://example.com/p/${n}`;
      if (live) {
        liveLeft--;
        liveCodes.push(code);
        const permanent = n % 2 === 0;
        const expiresAt = permanent ? null : now + HOUR + Math.floor(random() * 7 * HOUR);
        insert.run(domain, code, url, url, permanent ? 'PERMANENT' : 'TEMPORARY', 'ACTIVE', null, now - DAY, now - DAY, expiresAt);
      } else {
        expiredLeft--;
        // Anonymous links live ANON_TTL each and are created in id order, so they expire in id order too.
        const expiresAt = now - 2 * HOUR - Math.floor(((total - n) / total) * 6 * DAY);
        insert.run(domain, code, url, url, 'TEMPORARY', PREMARKED ? 'EXPIRED' : 'ACTIVE', 'h'.repeat(64), expiresAt - 8 * HOUR, expiresAt - 8 * HOUR, expiresAt);
      }
    }
  });
  for (let done = 0; done < total; done += 50_000) chunk(Math.min(50_000, total - done));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('analyze');
  db.close();
  return liveCodes;
}

function countLinks(file: string): number {
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM links').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function printRatios(baseline: readonly Window[], withCreates: readonly Window[], during: readonly Window[], coverage: number): void {
  const duringP99 = redirectsOf(during).p99;
  const ratio = duringP99 / redirectsOf(baseline).p99;
  const creates = CREATE_INTERVAL_MS > 0 ? ' with creates' : '';
  console.log(`  redirect p99 during the run${creates} / baseline of redirects alone: ${fmt(ratio, 2)} (target ≤ 2: ${ratio <= 2 ? 'met' : 'NOT met'}); `
    + `the run covered ${fmt(coverage * 100)} % of the load windows`);
  if (withCreates.length > 0) {
    console.log(`  redirect p99 during the run with creates / baseline with creates:  ${fmt(duringP99 / redirectsOf(withCreates).p99, 2)} (the reaper's own share)`);
    const c = createsOf(during);
    console.log(`  creates during the run: ${fmt(c.responses)}, p99 ${fmt(c.p99, 2)} ms, non-201 or failed ${c.bad}`);
  }
}

function printRun(run: CleanupRunReport, { runMs, markMs, purgeMs }: RunTiming, linksLeft: number): void {
  console.log('');
  console.log(`reaper run: ${run.status}${run.error ? ` (${run.error})` : ''}${run.stoppedEarly ? `, stopped early: ${run.stoppedEarly}` : ''}`);
  console.log(`  ${fmt(runMs / 1000, 1)} s = mark ${fmt(markMs / 1000, 1)} s + purge ${fmt(purgeMs / 1000, 1)} s, ${run.batches} batches`);
  console.log(`  marked ${fmt(run.markedExpired)}, purged ${fmt(run.purged)}, archived ${fmt(run.archived)}; links left ${fmt(linksLeft)} (${fmt(LIVE)} live seeded, plus the creates)`);
  console.log(`  purged rows/s: ${fmt(run.purged / (runMs / 1000))} over the whole run, ${fmt(run.purged / Math.max(purgeMs / 1000, 0.001))} in the purge phase; `
    + `marked rows/s in the mark phase: ${fmt(run.markedExpired / Math.max(markMs / 1000, 0.001))}`);
  console.log(`  within one CLEANUP_INTERVAL (15 min): ${runMs <= INTERVAL_MS ? 'yes' : 'NO'}`);
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  console.log(`reaper bench: ${fmt(EXPIRED)} expired${PREMARKED ? ' (pre-marked EXPIRED)' : ' (ACTIVE, unmarked)'} + ${fmt(LIVE)} live links; `
    + `batch ${BATCH_SIZE}, pause ${PAUSE}, archive ${ARCHIVE}, cache ${CACHE ? 'on' : 'off'}; load windows of ${SECONDS} s, ${CONNECTIONS} connections, `
    + `${RATE > 0 ? `${fmt(RATE)} req/s` : 'unthrottled'}; ${CREATE_INTERVAL_MS > 0 ? `a create every ${CREATE_INTERVAL_MS} ms` : 'no creates'}; `
    + `${os.cpus().length} CPUs, node ${process.version}`);
  const dataDir = makeTempDir('linkforge-reaper-bench-');
  const config = loadConfig(settings(dataDir));
  if (config.database.kind !== 'sqlite') throw new Error('the bench needs the embedded SQLite database');
  const domain = await prepareDatabase(config);
  const seedStarted = performance.now();
  const liveCodes = seed(config.database.path, domain, Date.now());
  console.log(`seeded in ${fmt((performance.now() - seedStarted) / 1000, 1)} s`);
  const codesFile = writeLines(dataDir, 'live-codes.txt', liveCodes);

  const deps = await createDeps(config);
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  try {
    if (CACHE) await prime(port, liveCodes);
    const eventLoop = monitorEventLoopDelay({ resolution: 5 });
    eventLoop.enable();
    const redirectLoad = (seconds: number, rate = RATE) =>
      load(port, { codesFile }, { loadgen: 'autocannon', connections: CONNECTIONS, seconds, rate: rate > 0 ? rate : undefined });
    const createLoad = () => load(port, { create: { path: '/api/urls/public' } },
      { loadgen: 'autocannon', connections: CREATE_CONNECTIONS, seconds: SECONDS, rate: 1000 / CREATE_INTERVAL_MS });
    const measure = async (label: Window['label'], creating: boolean): Promise<Window> => {
      eventLoop.reset();
      const [redirects, creates] = await Promise.all([redirectLoad(SECONDS), creating ? createLoad() : undefined]);
      return { label, redirects, creates, loopP99: eventLoop.percentile(99) / 1e6, loopMax: eventLoop.max / 1e6 };
    };

    const capacity = redirectsOf([{ label: 'baseline', redirects: await redirectLoad(3, 0), loopP99: 0, loopMax: 0 }]);
    console.log(`capacity without the reaper, unthrottled: ${fmt(capacity.rps)} req/s (also the warm-up)`);
    const creating = CREATE_INTERVAL_MS > 0;
    const baseline = [await measure('baseline', false), await measure('baseline', false)];
    const withCreates = creating ? [await measure('baseline + creates', true), await measure('baseline + creates', true)] : [];

    const { run, timing, during } = await runUnderLoad(deps, (phase) => measure(phase, creating));
    printRun(run, timing, countLinks(config.database.path));
    console.log('');
    printLoadTable([
      ['baseline, redirects alone', baseline],
      ['baseline with creates', withCreates],
      [`while the reaper runs${creating ? ', creates' : ''}`, during],
      ['  of which mark phase', during.filter((w) => w.label === 'mark')],
      ['  of which purge phase', during.filter((w) => w.label === 'purge')],
    ], CREATE_INTERVAL_MS);
    printRatios(baseline, withCreates, during, Math.min(1, timing.runMs / timing.loadMs));
  } finally {
    await app.close();
    await deps.close();
  }
}

await runBench(main);
