/**
 * Reaper benchmark (issue 4 item 6, SPEC section 11). Not part of the test suite.
 *
 *   npx tsx bench/reaper.ts
 *   REAPER_BENCH_EXPIRED=100000 REAPER_BENCH_LIVE=20000 REAPER_BENCH_SECONDS=8 npx tsx bench/reaper.ts   (quick)
 *
 * Seeds a temp SQLite file (schema from the real migrations) with REAPER_BENCH_EXPIRED anonymous
 * links that expired between 2 hours and 6 days ago (in id order, as created), still ACTIVE as the redirect path leaves them,
 * interleaved with REAPER_BENCH_LIVE live ones (half permanent, half expiring in the next hours).
 * Starts the real app in this process (createDeps + buildApp + listen on 127.0.0.1:0; the reaper
 * runs in the same process and event loop, as in production), warms the LRU with the live codes,
 * then drives redirects of the live codes from a separate autocannon process at a fixed rate: once
 * as a baseline, then again while one reaper run marks and purges
 * every expired link (CLEANUP_RETENTION 1h, so all of them qualify), in back-to-back windows until
 * the run ends. Prints the run's time, rows per second, redirect p50/p99 and requests/s without and
 * with the reaper (and per phase), the p99 ratio (target ≤ 2) and whether the purge fits in one
 * CLEANUP_INTERVAL (15 min). Deletes its temp dir when done.
 *
 * Environment (all optional):
 *   REAPER_BENCH_EXPIRED (1000000), REAPER_BENCH_LIVE (100000)
 *   REAPER_BENCH_SECONDS (10)       seconds per load window: 2 for the baseline, then as many as the run takes
 *   REAPER_BENCH_CONNECTIONS (50)
 *   REAPER_BENCH_RATE (4000)        requests/s over all connections; 0 = as fast as the server answers
 *                                   (saturated, so latency is mostly queueing behind the reaper's CPU)
 *   REAPER_BENCH_BATCH_SIZE (1000), REAPER_BENCH_PAUSE (100ms)   the reaper's CLEANUP_BATCH_SIZE / _PAUSE
 *   REAPER_BENCH_ARCHIVE (true)     CLEANUP_ARCHIVE
 *   REAPER_BENCH_MARKED (false)     seed the expired links as EXPIRED already (skips the mark phase)
 *   REAPER_BENCH_CACHE (true)       false: CACHE_MAX_ENTRIES=0, every redirect reads SQLite
 */
import { seededRandom } from './support/seeded-random.js';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import type { FinishedRun } from '../src/jobs/reaper.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const INTERVAL_MS = 15 * 60_000;

function envInt(name: string, fallback: number, min: number): number {
  const text = process.env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min} (got "${text}")`);
  return value;
}
const envBool = (name: string, fallback: boolean) => {
  const text = process.env[name]?.trim().toLowerCase();
  return text ? ['1', 'true', 'yes', 'on'].includes(text) : fallback;
};

const EXPIRED = envInt('REAPER_BENCH_EXPIRED', 1_000_000, 0);
const LIVE = envInt('REAPER_BENCH_LIVE', 100_000, 100);
const SECONDS = envInt('REAPER_BENCH_SECONDS', 10, 1);
const CONNECTIONS = envInt('REAPER_BENCH_CONNECTIONS', 50, 1);
/** Requests per second over all connections; 0 drives the server as fast as it answers. */
const RATE = envInt('REAPER_BENCH_RATE', 4000, 0);
const BATCH_SIZE = envInt('REAPER_BENCH_BATCH_SIZE', 1000, 1);
const PAUSE = process.env.REAPER_BENCH_PAUSE?.trim() || '100ms';
const ARCHIVE = envBool('REAPER_BENCH_ARCHIVE', true);
const PREMARKED = envBool('REAPER_BENCH_MARKED', false);
const CACHE = envBool('REAPER_BENCH_CACHE', true);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-reaper-bench-'));
process.once('SIGINT', () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(130);
});

const config = loadConfig({
  DATA_DIR: dataDir,
  BASE_URL: 'http://sho.rt',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  CLEANUP_ENABLED: 'false', // the run is started by hand, when the load starts
  CLEANUP_RETENTION: '1h',
  CLEANUP_BUFFER: '1h',
  CLEANUP_BATCH_SIZE: String(BATCH_SIZE),
  CLEANUP_BATCH_PAUSE: PAUSE,
  CLEANUP_MAX_DURATION: '14m',
  CLEANUP_ARCHIVE: String(ARCHIVE),
  CACHE_MAX_ENTRIES: CACHE ? String(LIVE + 10_000) : '0',
  HEALTHCHECK_ENABLED: 'false',
});


function seed(now: number): string[] {
  const db = new SQLite(config.database.kind === 'sqlite' ? config.database.path : '');
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
        insert.run(config.shortDomain, code, url, url, permanent ? 'PERMANENT' : 'TEMPORARY', 'ACTIVE', null, now - DAY, now - DAY, expiresAt);
      } else {
        expiredLeft--;
        // Anonymous links live ANON_TTL each and are created in id order, so they expire in id order too.
        const expiresAt = now - 2 * HOUR - Math.floor(((total - n) / total) * 6 * DAY);
        insert.run(config.shortDomain, code, url, url, 'TEMPORARY', PREMARKED ? 'EXPIRED' : 'ACTIVE', 'h'.repeat(64), expiresAt - 8 * HOUR, expiresAt - 8 * HOUR, expiresAt);
      }
    }
  });
  for (let done = 0; done < total; done += 50_000) chunk(Math.min(50_000, total - done));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('analyze');
  db.close();
  return liveCodes;
}

interface LoadResult {
  readonly type: 'result';
  readonly durationSeconds: number;
  readonly responses: number;
  readonly latencyUs: Array<[number, number]>;
  readonly statusCounts: Record<string, number>;
  readonly errors: number;
  readonly timeouts: number;
}

/**
 * The load generator, run as `node --input-type=module -e` in a process of its own so that it does
 * not share this event loop: autocannon's programmatic API, one uniformly random live code per
 * request, latencies kept at microsecond resolution (autocannon's own histogram keeps whole ms).
 */
const LOAD_SCRIPT = `
import fs from 'node:fs';
import autocannon from 'autocannon';
const options = JSON.parse(process.argv[1]);
const codes = fs.readFileSync(options.codesFile, 'utf8').split('\\n').filter(Boolean).map((code) => '/' + code);
const latencyUs = new Map();
const statusCounts = {};
let responses = 0;
const instance = autocannon({
  url: 'http://127.0.0.1:' + options.port,
  connections: options.connections,
  duration: options.seconds,
  overallRate: options.rate > 0 ? options.rate : undefined,
  timeout: 10,
  requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: codes[(Math.random() * codes.length) | 0] }) }],
}, (error, result) => {
  if (error) { console.error(error); process.exit(1); }
  process.send({ type: 'result', durationSeconds: result.duration, responses, latencyUs: [...latencyUs], statusCounts,
    errors: result.errors, timeouts: result.timeouts }, () => process.exit(0));
});
instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
  responses++;
  statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
  const us = Math.round(responseTimeMs * 1000);
  latencyUs.set(us, (latencyUs.get(us) ?? 0) + 1);
});
`;

function load(port: number, codesFile: string, seconds: number, rate = RATE): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const options = JSON.stringify({ port, connections: CONNECTIONS, seconds, codesFile, rate });
    const child = spawn(process.execPath, ['--input-type=module', '-e', LOAD_SCRIPT, options], {
      cwd: REPO, stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (message) => resolve(message as LoadResult));
    child.once('exit', (code) => { if (code !== 0) reject(new Error(`load generator exited with ${code}`)); });
  });
}

function percentile(histogram: Array<[number, number]>, p: number): number {
  const sorted = [...histogram].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, count]) => sum + count, 0);
  let seen = 0;
  for (const [us, count] of sorted) {
    seen += count;
    if (seen >= total * p) return us / 1000;
  }
  return 0;
}

function summarize(result: LoadResult) {
  const non3xx = Object.entries(result.statusCounts).filter(([status]) => !status.startsWith('3')).reduce((sum, [, n]) => sum + n, 0);
  return {
    rps: result.responses / result.durationSeconds,
    p50: percentile(result.latencyUs, 0.5),
    p99: percentile(result.latencyUs, 0.99),
    max: percentile(result.latencyUs, 1),
    bad: non3xx + result.errors + result.timeouts,
  };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function merge(results: readonly LoadResult[]): LoadResult {
  const latency = new Map<number, number>();
  const statusCounts: Record<string, number> = {};
  for (const result of results) {
    for (const [us, count] of result.latencyUs) latency.set(us, (latency.get(us) ?? 0) + count);
    for (const [status, count] of Object.entries(result.statusCounts)) statusCounts[status] = (statusCounts[status] ?? 0) + count;
  }
  return {
    type: 'result',
    durationSeconds: results.reduce((sum, r) => sum + r.durationSeconds, 0),
    responses: results.reduce((sum, r) => sum + r.responses, 0),
    latencyUs: [...latency],
    statusCounts,
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    timeouts: results.reduce((sum, r) => sum + r.timeouts, 0),
  };
}

interface Window { readonly label: string; readonly load: LoadResult; readonly loopP99: number; readonly loopMax: number }

function printLoadTable(baseline: readonly Window[], during: readonly Window[]): void {
  const rows: Array<[string, readonly Window[]]> = [['baseline (no reaper)', baseline], ['while the reaper runs', during]];
  for (const phase of ['mark', 'purge']) {
    const windows = during.filter((w) => w.label === phase);
    if (windows.length > 0) rows.push([`  of which ${phase} phase`, windows]);
  }
  console.log('redirects of live codes        req/s    p50 ms   p99 ms   max ms  non-3xx/errors  event loop p99 / max ms');
  for (const [name, windows] of rows) {
    const s = summarize(merge(windows.map((w) => w.load)));
    const loopP99 = Math.max(...windows.map((w) => w.loopP99));
    const loopMax = Math.max(...windows.map((w) => w.loopMax));
    console.log(`  ${name.padEnd(26)} ${fmt(s.rps).padStart(7)} ${fmt(s.p50, 2).padStart(9)} ${fmt(s.p99, 2).padStart(8)} ${fmt(s.max, 1).padStart(8)} ${String(s.bad).padStart(15)}  ${fmt(loopP99, 1)} / ${fmt(loopMax, 1)}`);
  }
}

async function main(): Promise<void> {
  console.log(`reaper bench: ${fmt(EXPIRED)} expired${PREMARKED ? ' (pre-marked EXPIRED)' : ' (ACTIVE, unmarked)'} + ${fmt(LIVE)} live links; `
    + `batch ${BATCH_SIZE}, pause ${PAUSE}, archive ${ARCHIVE}, cache ${CACHE ? 'on' : 'off'}; load windows of ${SECONDS} s, ${CONNECTIONS} connections, `
    + `${RATE > 0 ? `${fmt(RATE)} req/s` : 'unthrottled'}; ${os.cpus().length} CPUs, node ${process.version}`);
  const migrate = await createDeps(config);
  await migrate.close();
  const seedStarted = performance.now();
  const liveCodes = seed(Date.now());
  console.log(`seeded in ${fmt((performance.now() - seedStarted) / 1000, 1)} s`);
  const codesFile = path.join(dataDir, 'live-codes.txt');
  fs.writeFileSync(codesFile, liveCodes.join('\n'));

  const deps = await createDeps(config);
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  try {
    if (CACHE) for (const code of liveCodes) await deps.resolver.load(code);
    const eventLoop = monitorEventLoopDelay({ resolution: 5 });
    eventLoop.enable();
    const measure = async (label: string): Promise<Window> => {
      eventLoop.reset();
      const result = await load(port, codesFile, SECONDS);
      return { label, load: result, loopP99: eventLoop.percentile(99) / 1e6, loopMax: eventLoop.max / 1e6 };
    };

    const capacity = summarize(await load(port, codesFile, 3, 0)); // warm-up (JIT, sockets) and the unthrottled capacity
    console.log(`capacity without the reaper, unthrottled: ${fmt(capacity.rps)} req/s`);
    const baseline = [await measure('baseline'), await measure('baseline')];

    // Load windows follow one another for as long as the run lasts, each labelled with its phase.
    let phase: 'mark' | 'purge' = 'mark';
    const phaseStarts: Partial<Record<'mark' | 'purge', number>> = {};
    deps.cleanup.reaper.hooks = {
      beforeBatch: (event) => {
        if (event.batch === 1) phaseStarts[event.phase] = performance.now();
        phase = event.phase;
      },
    };
    const started = performance.now();
    let finishedAt: number | undefined;
    const reaping = deps.cleanup.reaper.run({ trigger: 'manual' }).finally(() => { finishedAt = performance.now(); });
    const during: Window[] = [];
    while (finishedAt === undefined) {
      const label = phase;
      during.push(await measure(label));
      console.log(`  load window ${during.length} (${label} phase): p99 ${fmt(percentile(during.at(-1)!.load.latencyUs, 0.99), 2)} ms`);
    }
    const loadEndedAt = performance.now();
    const result = await reaping;
    if (result.outcome !== 'ran') throw new Error(`the reaper did not run: ${result.outcome}`);
    const run: FinishedRun = result;
    const runMs = finishedAt - started;
    const markMs = (phaseStarts.purge ?? finishedAt) - (phaseStarts.mark ?? started);
    const purgeMs = phaseStarts.purge === undefined ? 0 : finishedAt - phaseStarts.purge;
    const left = await deps.database.db.selectFrom('links').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();

    console.log('');
    console.log(`reaper run: ${run.status}${run.error ? ` (${run.error})` : ''}${run.stoppedEarly ? `, stopped early: ${run.stoppedEarly}` : ''}`);
    console.log(`  ${fmt(runMs / 1000, 1)} s = mark ${fmt(markMs / 1000, 1)} s + purge ${fmt(purgeMs / 1000, 1)} s, ${run.batches} batches`);
    console.log(`  marked ${fmt(run.markedExpired)}, purged ${fmt(run.purged)}, archived ${fmt(run.archived)}; links left ${fmt(Number(left.n))} (${fmt(LIVE)} live seeded)`);
    console.log(`  purged rows/s: ${fmt(run.purged / (runMs / 1000))} over the whole run, ${fmt(run.purged / Math.max(purgeMs / 1000, 0.001))} in the purge phase; `
      + `marked rows/s in the mark phase: ${fmt(run.markedExpired / Math.max(markMs / 1000, 0.001))}`);
    console.log(`  within one CLEANUP_INTERVAL (15 min): ${runMs <= INTERVAL_MS ? 'yes' : 'NO'}`);
    console.log('');
    printLoadTable(baseline, during);
    const baseP99 = summarize(merge(baseline.map((w) => w.load))).p99;
    const duringP99 = summarize(merge(during.map((w) => w.load))).p99;
    const ratio = duringP99 / baseP99;
    console.log(`  p99 during / baseline: ${fmt(ratio, 2)} (target ≤ 2: ${ratio <= 2 ? 'met' : 'NOT met'}); `
      + `load covered ${fmt(Math.min(1, runMs / (loadEndedAt - started)) * 100)} % of the windows while the reaper ran`);
  } finally {
    await app.close();
    await deps.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
});
