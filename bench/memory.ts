/**
 * Memory benchmark: under 200 MiB RSS serving 1 million links, with analytics on (docs/adr/0020).
 * Not part of the test suite.
 *
 *   npm run bench:memory            (= npx tsx bench/memory.ts)
 *   MEMORY_BENCH_LINKS=50000 MEMORY_BENCH_CODES=20000 MEMORY_BENCH_EXPIRED=5000 npm run bench:memory   (quick)
 *
 * Seeds a fresh SQLite file (schema from the real migrations; one prepared insert in one
 * transaction, then a WAL checkpoint) with MEMORY_BENCH_LINKS links, of which the first
 * MEMORY_BENCH_EXPIRED expired 30 days ago (still ACTIVE, as the redirect path leaves them).
 * Starts the real app compiled by tsc in a child process with default settings (the cache's bounds
 * printed with the report) and samples its RSS every 100 ms from /proc (VmRSS, and the kernel's high-water mark
 * VmHWM). Then:
 *   1. idle: waits MEMORY_BENCH_SETTLE_MS after start;
 *   2. redirects: GETs MEMORY_BENCH_CODES distinct live codes, each once, in random order (wrk with
 *      bench/support/walk.lua, or the bench's own node:http client without wrk), so the LRU fills
 *      and then churns;
 *   3. full speed (wrk only): walks the same codes again and again for MEMORY_BENCH_FULL_SPEED_SECONDS,
 *      as fast as the app answers, so every analytics flush carries tens of thousands of distinct
 *      links and the LRU churns: the case where the visit buffer, the flushes and the writer thread
 *      hold the most;
 *   4. reaper: runs the reaper through `POST /api/admin/cleanup/run` as an admin (ADMIN_EMAILS,
 *      registered before the load), which answers when the run has ended (checked with
 *      `GET /api/admin/cleanup/stats`): it marks and purges every expired link.
 * Prints the RSS after each step (anonymous and file-backed from /proc/PID/smaps_rollup, the main
 * thread's V8 heap from the app) and the peak over the whole run against the 200 MiB target. Stops
 * the app and deletes its temp dir, also on Ctrl-C.
 *
 * Environment (all optional):
 *   MEMORY_BENCH_LINKS (1000000)       links seeded
 *   MEMORY_BENCH_EXPIRED (100000)      of them expired long ago, for the reaper run
 *   MEMORY_BENCH_CODES (400000)        distinct live codes requested once each
 *   MEMORY_BENCH_CONNECTIONS (32)      connections of the load generator
 *   MEMORY_BENCH_SETTLE_MS (2000)      wait before each RSS reading, so it shows what stays
 *   MEMORY_BENCH_SEED (1)
 *   MEMORY_BENCH_FULL_SPEED_SECONDS (60)  step 3's length; 0 leaves it out
 *   MEMORY_BENCH_APP_ENV ('')          more settings of the app, NAME=value,NAME=value
 *                                      (e.g. ANALYTICS_ENABLED=false)
 *   BENCH_LOADGEN=wrk|node             wrk when it is installed, else the bench's node:http client
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.js';
import { baseEnv, makeTempDir, runBench, SUPPORT } from './support/children.js';
import { compileAppInBackground } from './support/compile-app.js';
import { envInt, loadAverage } from './support/env.js';
import { postJson, registerUser, request } from './support/http-client.js';
import { hasWrk, runWrk } from './support/load.js';
import { walkCodes } from './support/measure.js';
import { makeLinks, pick, prepareDatabase, seedDatabase, writeLines } from './support/seed-links.js';
import { seededRandom } from './support/seeded-random.js';
import { measuredCommit } from './support/run-facts.js';
import { appSettings, startServer, statsOf, type Server } from './support/servers.js';

/** Read at the start: files edited while the bench runs do not make its figures "dirty". */
const COMMIT = measuredCommit();

const LINK_COUNT = envInt('MEMORY_BENCH_LINKS', 1_000_000, 1_000);
const EXPIRED = Math.min(envInt('MEMORY_BENCH_EXPIRED', 100_000, 0), LINK_COUNT - 1);
const CODES = Math.min(envInt('MEMORY_BENCH_CODES', 400_000, 1), LINK_COUNT - EXPIRED);
const CONNECTIONS = envInt('MEMORY_BENCH_CONNECTIONS', 32, 1);
const SETTLE_MS = envInt('MEMORY_BENCH_SETTLE_MS', 2_000, 0);
const SEED = envInt('MEMORY_BENCH_SEED', 1, 0);
const FULL_SPEED_SECONDS = envInt('MEMORY_BENCH_FULL_SPEED_SECONDS', 60, 0);
/** Extra settings of the app, `NAME=value,NAME=value` (e.g. ANALYTICS_ENABLED=false), to see what a part costs. */
const APP_ENV = Object.fromEntries((process.env.MEMORY_BENCH_APP_ENV ?? '').split(',').filter(Boolean).map((pair) => {
  const at = pair.indexOf('=');
  return [pair.slice(0, at), pair.slice(at + 1)];
}));
const LOADGEN = process.env.BENCH_LOADGEN === 'node' || !hasWrk() ? 'node' : 'wrk';
const TARGET_BYTES = 200 * 1024 * 1024;
const ADMIN_EMAIL = 'admin@example.com';
const DAY = 24 * 3600 * 1000;

const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
const fmtMb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------------------------------------
// RSS of the app process, from the parent

interface MemoryReading {
  readonly rssBytes: number;
  /** The kernel's peak RSS of the process so far: catches spikes between two samples. */
  readonly hwmBytes: number;
}

function readMemory(pid: number): MemoryReading | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rssBytes: kib('VmRSS'), hwmBytes: kib('VmHWM') };
  } catch {
    return undefined; // the process has gone
  }
}

/** Anonymous (heaps, page caches) and file-backed (the node binary, libraries) RSS, from /proc/PID/smaps_rollup. */
function rssKinds(pid: number): string {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0) * 1024;
    return `anon ${fmtMb(kib('Anonymous'))}, file ${fmtMb(kib('Rss') - kib('Anonymous'))}`;
  } catch {
    return '';
  }
}

class RssSampler {
  private maxRss = 0;
  private last: MemoryReading = { rssBytes: 0, hwmBytes: 0 };
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number, intervalMs = 100) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.sample();
  }

  /** Reads now (a reading, not the last sample). */
  sample(): MemoryReading {
    const reading = readMemory(this.pid);
    if (reading) {
      this.last = reading;
      this.maxRss = Math.max(this.maxRss, reading.rssBytes);
    }
    return this.last;
  }

  /** The highest RSS seen: the kernel's high-water mark, or a sample, whichever is higher. */
  peakBytes(): number {
    return Math.max(this.maxRss, this.last.hwmBytes);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

// ---------------------------------------------------------------------------------------------
// Steps

async function seed(config: ReturnType<typeof loadConfig>, tempDir: string): Promise<string> {
  if (config.database.kind !== 'sqlite') throw new Error('the bench needs the embedded SQLite database');
  const domain = await prepareDatabase(config);
  const random = seededRandom(SEED);
  const now = Date.now();
  // The oldest links expired a month ago; of the rest one in ten expires in a year, the others never.
  const links = makeLinks(LINK_COUNT, 7, random, (i) => (i < EXPIRED ? now - 30 * DAY : random() < 0.1 ? now + 365 * DAY : null));
  const started = Date.now();
  seedDatabase(config.database.path, domain, links);
  console.error(`  seeded ${fmtInt(LINK_COUNT)} links in ${seconds(Date.now() - started)}`);
  const live = links.slice(EXPIRED).map((link) => link.code);
  return writeLines(tempDir, 'codes.txt', pick(live, CODES, random));
}

interface CleanupRun { readonly status: string; readonly marked_expired: number; readonly purged: number; readonly duration_ms: number; readonly error: string | null }

/**
 * One reaper run through the admin API, once: background work waits for the writer however busy
 * it is (ADR 0023), so a 503 or a failed run right after the full-speed load is a finding, not noise.
 */
async function runReaper(app: Server, token: string): Promise<CleanupRun> {
  const run = await postJson<CleanupRun>(app.port, '/api/admin/cleanup/run', undefined, 200, token);
  const stats = await request(app.port, 'GET', '/api/admin/cleanup/stats', { token });
  const { is_running: running } = JSON.parse(stats.body) as { is_running: boolean };
  if (stats.status !== 200 || running) throw new Error(`cleanup stats after the run: ${stats.status} ${stats.body}`);
  return run;
}

/**
 * Redirects as fast as the app serves them, for FULL_SPEED_SECONDS: wrk walks the codes in order
 * and starts over, so every flush carries tens of thousands of distinct links. Answers the redirects served.
 */
async function fullSpeed(app: Server, codesFile: string): Promise<number> {
  await statsOf(app, true);
  await runWrk('walk.lua', app.port, CONNECTIONS, FULL_SPEED_SECONDS, [codesFile]).finished;
  const { statusCounts } = await statsOf(app);
  return Object.entries(statusCounts).reduce((sum, [status, count]) => sum + (status.startsWith('3') ? count : 0), 0);
}

// ---------------------------------------------------------------------------------------------
// Main

interface Row { readonly step: string; readonly rssBytes: number; readonly detail: string }

function printReport(rows: readonly Row[], peakBytes: number, loadAtStart: string, cache: { maxEntries: number; maxBytes: number }): void {
  const verdict = (bytes: number) => (bytes < TARGET_BYTES ? 'PASS' : 'MISS');
  console.log('');
  console.log(`commit ${COMMIT}`);
  console.log(`Linkforge memory bench · node ${process.version} · ${os.cpus().length} CPUs · ${fmtInt(LINK_COUNT)} links, ${fmtInt(EXPIRED)} of them expired 30 days ago`);
  console.log(`app compiled by tsc, CACHE_MAX_ENTRIES ${fmtInt(cache.maxEntries)}, CACHE_MAX_BYTES ${fmtMb(cache.maxBytes)} · ${fmtInt(CODES)} distinct codes with ${LOADGEN}, ${CONNECTIONS} connections · load average at start ${loadAtStart}`);
  console.log('');
  const width = Math.max(...rows.map((row) => row.step.length), 'peak over the whole run (VmHWM)'.length);
  console.log(`${'step'.padEnd(width)}  ${'RSS'.padStart(8)}  target     result  detail`);
  for (const row of rows) {
    console.log(`${row.step.padEnd(width)}  ${fmtMb(row.rssBytes).padStart(8)}  < 200 MiB  ${verdict(row.rssBytes).padEnd(6)}  ${row.detail}`);
  }
  console.log(`${'peak over the whole run (VmHWM)'.padEnd(width)}  ${fmtMb(peakBytes).padStart(8)}  < 200 MiB  ${verdict(peakBytes)}`);
  console.log('');
  console.log('RSS read from /proc/PID/status of the app process after each step has settled; the peak is the kernel\'s high-water mark (and the highest 100 ms sample).');
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = loadAverage();
  const tempDir = makeTempDir('linkforge-memory-bench-');
  // The scheduled cleanup waits an hour: its first run would otherwise start during the load and
  // hold the lock past the bench's own run (CLEANUP_LOCK_AT_LEAST).
  const env = appSettings(path.join(tempDir, 'data'), { ADMIN_EMAILS: ADMIN_EMAIL, CLEANUP_INITIAL_DELAY: '1h', ...APP_ENV });
  console.error(`linkforge memory bench: node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAtStart}`);
  const srcDir = compileAppInBackground(tempDir);
  const config = loadConfig({ ...env, CLEANUP_ENABLED: 'false' });
  const codesFile = await seed(config, tempDir);

  const app = await startServer('app', path.join(SUPPORT, 'app-server.mjs'), [await srcDir], { env: { ...baseEnv(), ...env } });
  const sampler = new RssSampler(app.child.pid!);
  const settled = async () => { await sleep(SETTLE_MS); return sampler.sample().rssBytes; };
  const parts = async () => {
    const stats = (await statsOf(app)) as unknown as { memoryUsage?: NodeJS.MemoryUsage; droppedVisits?: number };
    const heap = stats.memoryUsage;
    const main = heap ? `main heap ${fmtMb(heap.heapUsed)} of ${fmtMb(heap.heapTotal)}, external ${fmtMb(heap.external)}` : '';
    return `${rssKinds(app.child.pid!)}; ${main}; ${fmtInt(stats.droppedVisits ?? 0)} visits dropped; peak so far ${fmtMb(sampler.peakBytes())}`;
  };
  const rows: Row[] = [];
  try {
    rows.push({ step: 'idle after start', rssBytes: await settled(), detail: await parts() });
    const adminToken = await registerUser(app.port, ADMIN_EMAIL);

    console.error(`requesting ${fmtInt(CODES)} distinct codes with ${LOADGEN}`);
    const walkStarted = Date.now();
    const statuses = await walkCodes(app, codesFile, LOADGEN === 'wrk', CONNECTIONS);
    const walkMs = Date.now() - walkStarted;
    const { cacheSize } = await statsOf(app);
    rows.push({ step: `after ${fmtInt(CODES)} distinct codes`, rssBytes: await settled(),
      detail: `${fmtInt(CODES / (walkMs / 1000))} req/s, statuses ${JSON.stringify(statuses)} (the few beyond ${fmtInt(CODES)} repeat the first codes while wrk stops), ${fmtInt(cacheSize)} cached; ${await parts()}` });
    const peakBeforeFullSpeed = sampler.peakBytes();

    if (FULL_SPEED_SECONDS > 0 && LOADGEN === 'wrk') {
      console.error(`walking the codes again and again for ${FULL_SPEED_SECONDS} s, as fast as the app answers`);
      const served = await fullSpeed(app, codesFile);
      rows.push({ step: `after ${FULL_SPEED_SECONDS} s at full speed`, rssBytes: await settled(),
        detail: `${fmtInt(served / FULL_SPEED_SECONDS)} req/s (${fmtInt(served)} redirects), peak before it ${fmtMb(peakBeforeFullSpeed)}; ${await parts()}` });
    }

    console.error('running the reaper through POST /api/admin/cleanup/run');
    const run = await runReaper(app, adminToken);
    rows.push({ step: 'after the reaper run', rssBytes: await settled(),
      detail: `${run.status}${run.error ? ` (${run.error})` : ''}: marked ${fmtInt(run.marked_expired)}, purged ${fmtInt(run.purged)} in ${seconds(run.duration_ms)}; ${await parts()}` });
  } finally {
    sampler.stop();
    printReport(rows, sampler.peakBytes(), loadAtStart, config.cache);
    console.log(`load average now ${loadAverage()} (other work on this machine skews the figures) · total ${seconds(Date.now() - started)}`);
  }
}

await runBench(main);
