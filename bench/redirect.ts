/**
 * Redirect and create benchmark (targets: docs/specification.md, "Performance targets").
 * Not part of the test suite.
 *
 *   npm run bench:redirect          (= npx tsx bench/redirect.ts)
 *   BENCH_SCENARIOS=creates BENCH_SECONDS=2 npm run bench:redirect      (only the creates, quick)
 *   BENCH_PROFILE=scaled npm run bench:redirect      (embedded hits and misses, then PostgreSQL + Redis)
 *
 * Redirects (scenarios hits, misses, unknown, fresh): seeds a fresh SQLite file (schema from the
 * real migrations) with 100,000 anonymous links, starts the real app twice in child processes (LRU
 * on; LRU off with CACHE_MAX_ENTRIES=0), for the hits a third time with ANALYTICS_ENABLED=false,
 * and a bare node:http server answering the same redirects from a Map, then drives each from a
 * separate load-generator process on 127.0.0.1. Every redirect request carries a browser's
 * User-Agent and a Referer. The apps record visits and flush them every second, as `npm start`
 * does; the cache hits compare bare, analytics on and analytics off in the same rounds.
 * Creates (scenario creates): starts the app once more on an empty database (RATE_LIMIT_ANON=0),
 * a bare Fastify server inserting each request's row with one prepared better-sqlite3 INSERT and a
 * naive node:http server doing the same without a framework (both WAL, synchronous=FULL, one
 * autocommit INSERT per request, as durable as the app), registers a user through the API, and
 * drives durable creates of unique URLs at BENCH_CREATE_CONNECTIONS: anonymous
 * `POST /api/urls/public` and owned `POST /api/urls` (JWT bearer), all three servers in the same
 * alternating rounds. Then it SIGKILLs them and checks that the rows on disk equal the 201s they
 * sent (acknowledged = stored).
 * Scaled profile (BENCH_PROFILE=scaled: scenarios hits, misses, scaled-hits, redis-misses,
 * pg-misses, two-instances; see bench/support/scaled-scenarios.ts): the same links also go into a
 * PostgreSQL database of the run's own on 127.0.0.1:5432, and the app runs on it with Redis
 * (127.0.0.1:6379, a key prefix of the run's own), against the same bare server in the same run:
 * cache hits, misses served by Redis, misses served by PostgreSQL, and two instances at once.
 * The database and the keys are removed at the end. Scaled scenarios may also be named in
 * BENCH_SCENARIOS without the profile.
 * Prints the commit measured (with "dirty" when the worktree has changes), requests/s, p50/p99, unexpected statuses,
 * server CPU per response, the ratios and targets of docs/specification.md ("Performance targets"),
 * and the app's RSS. Stops its children and deletes its temp dir
 * when done, also on Ctrl-C.
 *
 * The load generator is wrk (Debian's `wrk` package) when it is installed, else autocannon. On a
 * 2-core machine autocannon saturates its own core at 13–19k requests/s, below what a bare
 * node:http server serves (wrk drives the same server to ~30k/s): with autocannon the bare server's
 * figure is a floor and every ratio against it flatters the app. The table shows the load
 * generator's CPU; a row where it is near 100 % measured the load generator, not the server.
 *
 * Environment (all optional): BENCH_PROFILE (embedded) or scaled; BENCH_SCENARIOS which ones to
 * run (embedded: hits,misses,unknown,fresh,creates; scaled: hits,misses and the scaled ones); BENCH_SECONDS (10) measured seconds per server and scenario, split into BENCH_ROUNDS (2)
 * rounds taken in ABBA order; BENCH_WARMUP_SECONDS (3) of warm-up before them;
 * BENCH_CONNECTIONS (50) for redirects; BENCH_CREATE_CONNECTIONS (64) for creates;
 * BENCH_LINKS (100000); BENCH_HOT (1000) hot-set size; BENCH_SEED (1);
 * BENCH_LOADGEN=wrk|autocannon forces one load generator;
 * BENCH_APP=tsx runs the app from src/ through tsx instead of from a tsc build (faster to start, but
 * tsx's loader thread adds tens of MB to the RSS and its transform is not what `npm start` runs).
 */
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../src/config.js';
import { FAILURE_RESPONSES } from '../src/http/redirect-pages.js';
import { baseEnv, makeTempDir, REPO, runBench, SUPPORT } from './support/children.js';
import { compileAppInBackground } from './support/compile-app.js';
import { envInt, envList, loadAverage } from './support/env.js';
import { get, prime, registerUser } from './support/http-client.js';
import { chooseLoadgen } from './support/load.js';
import { compare, compareAll, cpu, primeHot, fmtInt, fmtMb, fmtMs, printRatioLines, printTable, rps, verdict, type BenchPart, type Measurement, type MeasureSettings, type RatioLine } from './support/measure.js';
import { SCALED_SCENARIOS, scaledScenarios } from './support/scaled-scenarios.js';
import { codeFrom, isShortCode, makeLinks, pick, prepareDatabase, seedDatabase, writeLines, type SeededLink } from './support/seed-links.js';
import { seededRandom } from './support/seeded-random.js';
import { measuredCommit, median } from './support/run-facts.js';
import { appSettings, killServer, servedCount, startServer, statsOf, type Server } from './support/servers.js';

// ---------------------------------------------------------------------------------------------
// Settings

const EMBEDDED = ['hits', 'misses', 'unknown', 'fresh', 'creates'] as const;
const PROFILE = process.env.BENCH_PROFILE?.trim() || 'embedded';
if (PROFILE !== 'embedded' && PROFILE !== 'scaled') throw new Error(`BENCH_PROFILE must be embedded or scaled (got "${PROFILE}")`);
const SCENARIOS = envList('BENCH_SCENARIOS', [...EMBEDDED, ...SCALED_SCENARIOS], PROFILE === 'scaled' ? ['hits', 'misses', ...SCALED_SCENARIOS] : EMBEDDED);
const SECONDS = envInt('BENCH_SECONDS', 10, 1);
const WARMUP_SECONDS = envInt('BENCH_WARMUP_SECONDS', 3, 0);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 50, 1);
const CREATE_CONNECTIONS = envInt('BENCH_CREATE_CONNECTIONS', 64, 1);
const LINK_COUNT = envInt('BENCH_LINKS', 100_000, 1_000);
const HOT_COUNT = Math.min(envInt('BENCH_HOT', 1_000, 1), LINK_COUNT);
const SEED = envInt('BENCH_SEED', 1, 0);
const ROUNDS = envInt('BENCH_ROUNDS', 2, 1);
const APP_RUNTIME = process.env.BENCH_APP === 'tsx' ? 'tsx' : 'build';
const LOADGEN = chooseLoadgen(process.env.BENCH_LOADGEN ?? 'auto');
if (SECONDS / ROUNDS < 1) throw new Error('BENCH_SECONDS / BENCH_ROUNDS must be at least 1 second');
const EXPIRING_SHARE = 0.1; // one link in ten expires (302); the rest never do (301)
const CODE_LENGTH = 7;
const PROBE_LENGTH = 8; // fresh unknown codes are one character longer than any seeded code
const EMBEDDED_REDIRECTS = ['hits', 'misses', 'unknown', 'fresh'].some((s) => SCENARIOS.has(s as 'hits'));
const SCALED = SCALED_SCENARIOS.some((s) => SCENARIOS.has(s));
const REDIRECTS = EMBEDDED_REDIRECTS || SCALED;

const COMMIT = measuredCommit();

const MEASURE: MeasureSettings = { loadgen: LOADGEN, connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, warmupSeconds: WARMUP_SECONDS };

const TARGETS = { hitsVsBare: 0.8, hitsVsBareAim: 0.9, analyticsCost: 0.1, missesVsHits: 0.7, p99Ms: 5, rssMb: 200, anonCreatesPerSecond: 5_000, createP99Ms: 50, anonVsNaive: 1.4, ownedVsBare: 0.8 };

// ---------------------------------------------------------------------------------------------
// Seeding

/** Both servers must give the same answers before their speed is compared. */
async function checkAnswers(servers: readonly Server[], sample: readonly SeededLink[], unknown: readonly string[], permanentCacheControl: string): Promise<void> {
  for (const server of servers) {
    for (const link of sample) {
      const answer = await get(server.port, `/${link.code}`);
      const status = link.expiresAt === null ? 301 : 302;
      const cacheControl = link.expiresAt === null ? permanentCacheControl : 'private, no-cache';
      if (answer.status !== status || answer.location !== link.url || answer.cacheControl !== cacheControl) {
        throw new Error(`${server.name}: /${link.code} answered ${answer.status} ${answer.location ?? ''} (${answer.cacheControl ?? ''}), expected ${status} ${link.url} (${cacheControl})`);
      }
    }
    for (const code of unknown.slice(0, 5)) {
      const answer = await get(server.port, `/${code}`);
      if (answer.status !== 404) throw new Error(`${server.name}: unknown /${code} answered ${answer.status}, expected 404`);
    }
  }
}

const underMb = (bytes: number) => verdict(bytes < TARGETS.rssMb * 1024 * 1024);

// ---------------------------------------------------------------------------------------------
// Redirect scenarios: (a) cache hits, (b) cache misses, (c) unknown negative-cached, (d) unknown fresh

interface Setup {
  readonly tempDir: string;
  readonly srcDir: Promise<string>;
  readonly benchEnv: Readonly<Record<string, string>>;
  readonly appEnv: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  readonly execArgv: string[];
}

async function redirectScenarios(setup: Setup): Promise<BenchPart> {
  const config = loadConfig(setup.benchEnv);
  if (config.database.kind !== 'sqlite') throw new Error('the bench needs the embedded SQLite database');
  console.error(`seeding ${fmtInt(LINK_COUNT)} links into ${config.database.path}`);
  const domain = await prepareDatabase(config);
  const random = seededRandom(SEED);
  const farFuture = Date.now() + 10 * 365 * 24 * 3600 * 1000;
  const links = makeLinks(LINK_COUNT, CODE_LENGTH, random, () => (random() < EXPIRING_SHARE ? farFuture : null));
  const seedStart = Date.now();
  seedDatabase(config.database.path, domain, links);
  console.error(`  seeded in ${Date.now() - seedStart} ms`);

  const known = new Set(links.map((l) => l.code));
  const hot = pick(links, HOT_COUNT, random);
  const unknown: string[] = [];
  while (unknown.length < HOT_COUNT) {
    const code = codeFrom(random, CODE_LENGTH);
    if (!known.has(code) && isShortCode(code)) unknown.push(code);
  }
  const hotFile = writeLines(setup.tempDir, 'hot.txt', hot.map((l) => l.code));
  const allFile = writeLines(setup.tempDir, 'all.txt', links.map((l) => l.code));
  const unknownFile = writeLines(setup.tempDir, 'unknown.txt', unknown);
  const linksFile = writeLines(setup.tempDir, 'links.tsv', links.map((l) => `${l.code}\t${l.url}\t${l.expiresAt ?? '-'}`));
  const permanentCacheControl = `public, max-age=${config.redirect.maxAgeSeconds}`;
  const bareSetup = writeLines(setup.tempDir, 'bare.json', [JSON.stringify({
    linksFile, permanentCacheControl, notFoundBody: FAILURE_RESPONSES.not_found.json.toString('utf8'),
  })]);

  const srcDir = await setup.srcDir;
  console.error('starting redirect servers');
  const appServer = path.join(SUPPORT, 'app-server.mjs');
  const [bare, appCached, appUncached, appNoAnalytics] = await Promise.all([
    startServer('bare', path.join(SUPPORT, 'bare-server.mjs'), [bareSetup], {}),
    startServer('app', appServer, [srcDir], { env: setup.appEnv({}), execArgv: setup.execArgv }),
    startServer('app (no LRU)', appServer, [srcDir], { env: setup.appEnv({ CACHE_MAX_ENTRIES: '0' }), execArgv: setup.execArgv }),
    // The same app with analytics off (ANALYTICS_ENABLED=false), for the cost of recording visits.
    SCENARIOS.has('hits') ? startServer('app (no analytics)', appServer, [srcDir], { env: setup.appEnv({ ANALYTICS_ENABLED: 'false' }), execArgv: setup.execArgv }) : undefined,
  ]);
  const sample = pick(links, 20, random);
  await checkAnswers([bare, appCached, appUncached, ...(appNoAnalytics ? [appNoAnalytics] : [])], sample, unknown, permanentCacheControl);
  const rssAtStart = (await statsOf(appCached)).rssBytes;

  console.error(`measuring redirects with ${LOADGEN}: ${SECONDS} s per server and scenario in ${ROUNDS} round(s) after ${WARMUP_SECONDS} s warm-up, ${CONNECTIONS} connections, pipelining 1`);
  const rows: Measurement[] = [];
  const ratioLines: RatioLine[] = [];
  let hits: Measurement | undefined;
  let hitsPair: [Measurement, Measurement] | undefined;
  if (SCENARIOS.has('hits') && appNoAnalytics) {
    await primeHot(appCached, hot.map((l) => l.code));
    await primeHot(appNoAnalytics, hot.map((l) => l.code));
    const [aBare, aApp, aOff] = await compareAll(MEASURE, `(a) cache hits, ${fmtInt(HOT_COUNT)} hot`, [bare, appCached, appNoAnalytics], { codesFile: hotFile }, 'redirect') as [Measurement, Measurement, Measurement];
    rows.push(aBare, aApp, aOff);
    hits = aApp;
    hitsPair = [aBare, aApp];
    const hitsVsBare = rps(aApp) / rps(aBare);
    const cost = 1 - rps(aApp) / rps(aOff);
    ratioLines.push(
      ['cache hits, analytics on, vs bare (a)', hitsVsBare.toFixed(2), `≥ ${TARGETS.hitsVsBare} (aim ${TARGETS.hitsVsBareAim})`,
        verdict(hitsVsBare >= TARGETS.hitsVsBare, hitsVsBare >= TARGETS.hitsVsBareAim)],
      ['  same from server CPU µs/response', (cpu(aBare) / cpu(aApp)).toFixed(2), '(hardly moved by other load)', ''],
      ['cache hits, analytics off, vs bare (a)', (rps(aOff) / rps(aBare)).toFixed(2), '', ''],
      ['  same from server CPU µs/response', (cpu(aBare) / cpu(aOff)).toFixed(2), '', ''],
      ['cost of analytics, 1 − on/off req/s (a)', `${(cost * 100).toFixed(1)} %`, `< ${TARGETS.analyticsCost * 100} %`, verdict(cost < TARGETS.analyticsCost)],
      ['  same from server CPU µs/response, on/off − 1', `${((cpu(aApp) / cpu(aOff) - 1) * 100).toFixed(1)} %`, '', ''],
      ['p99 cache hits (a)', `${fmtMs(aApp.latencyMs.p99)} ms`, `< ${TARGETS.p99Ms} ms`, verdict(aApp.latencyMs.p99 < TARGETS.p99Ms)],
      ['non-3xx in (a)', String(aApp.unexpected), '0', verdict(aApp.unexpected === 0)],
      ['event-loop delay p99, app (a)', `${fmtMs(aApp.eventLoopDelayP99Ms)} ms`, '< 20 ms (L-01)', verdict(aApp.eventLoopDelayP99Ms < 20)],
    );
    const dropped = (await statsOf(appCached)).droppedVisits ?? 0;
    ratioLines.push(['visits dropped by the full analytics buffer, app, since start', fmtInt(dropped), '0', verdict(dropped === 0)]);
  }
  if (SCENARIOS.has('hits')) ratioLines.push(...await metricsCost(setup, srcDir, appCached, hot.map((l) => l.code), hotFile));
  if (SCENARIOS.has('misses')) {
    const [bBare, bApp] = await compare(MEASURE, `(b) cache misses, ${fmtInt(LINK_COUNT / 1000)}k uniform`, bare, appUncached, { codesFile: allFile }, 'redirect');
    rows.push(bBare, bApp);
    if (hits) {
      const missesVsHits = rps(bApp) / rps(hits);
      ratioLines.push(
        ['cache misses vs cache hits (b/a)', missesVsHits.toFixed(2), `≥ ${TARGETS.missesVsHits}`, verdict(missesVsHits >= TARGETS.missesVsHits)],
        ['  same from server CPU µs/response', (cpu(hits) / cpu(bApp)).toFixed(2), '(hardly moved by other load)', ''],
      );
    }
    ratioLines.push(
      ['cache misses vs bare (b)', (rps(bApp) / rps(bBare)).toFixed(2), '', ''],
      ['p99 cache misses (b)', `${fmtMs(bApp.latencyMs.p99)} ms`, `< ${TARGETS.p99Ms} ms`, verdict(bApp.latencyMs.p99 < TARGETS.p99Ms)],
      ['non-3xx in (b)', String(bApp.unexpected), '0', verdict(bApp.unexpected === 0)],
    );
    const { rssBytes } = await statsOf(appUncached);
    ratioLines.push(['RSS app (no LRU), after (b)', fmtMb(rssBytes), `< ${TARGETS.rssMb} MB`, underMb(rssBytes)]);
  }
  if (SCENARIOS.has('unknown')) {
    await prime(appCached.port, unknown);
    const [cBare, cApp] = await compare(MEASURE, `(c) unknown, ${fmtInt(HOT_COUNT)} negative-cached`, bare, appCached, { codesFile: unknownFile }, 'not_found');
    rows.push(cBare, cApp);
    ratioLines.push(['unknown (negative-cached) vs bare (c)', (rps(cApp) / rps(cBare)).toFixed(2), '', ''],
      ['non-404 in (c)', String(cApp.unexpected), '0', verdict(cApp.unexpected === 0)]);
  }
  const rssAfterMain = (await statsOf(appCached)).rssBytes;
  if (SCENARIOS.has('fresh')) {
    const [dBare, dApp] = await compare(MEASURE, '(d) unknown, fresh every request', bare, appCached, { probeLength: PROBE_LENGTH }, 'not_found');
    rows.push(dBare, dApp);
    ratioLines.push(['unknown (fresh) vs bare (d)', (rps(dApp) / rps(dBare)).toFixed(2), '', ''],
      ['non-404 in (d)', String(dApp.unexpected), '0', verdict(dApp.unexpected === 0)]);
  }

  const notes = ['Statuses are counted by each server as it answers (a writeHead probe, the same in all), so they are exact whatever the load generator.'];
  if (EMBEDDED_REDIRECTS) {
    // Every link requested once, so the LRU is as full as its bounds let it be (CACHE_MAX_ENTRIES,
    // CACHE_MAX_BYTES): the memory a full cache costs.
    const full = await prime(appCached.port, links.map((l) => l.code));
    const fullStats = await statsOf(appCached);
    ratioLines.push(
      ['RSS app, after the redirect scenarios', fmtMb(rssAfterMain), `< ${TARGETS.rssMb} MB`, underMb(rssAfterMain)],
      [`RSS app, all ${fmtInt(fullStats.cacheSize)} links cached`, fmtMb(fullStats.rssBytes), `< ${TARGETS.rssMb} MB`, underMb(fullStats.rssBytes)],
    );
    notes.push(`RSS app at start ${fmtMb(rssAtStart)} · bare server ${fmtMb((await statsOf(bare)).rssBytes)} · full-cache prime statuses ${JSON.stringify(Object.fromEntries(full))}`);
  }
  if (!SCALED) return { rows, ratioLines, notes };
  const scaled = await scaledScenarios({
    scenarios: SCENARIOS, settings: MEASURE, appSettings: setup.benchEnv, appEnv: setup.appEnv, srcDir, execArgv: setup.execArgv,
    bare, domain, links, hotCodes: hot.map((l) => l.code), hotFile, allFile, embeddedHits: hitsPair,
    checkAnswers: (servers) => checkAnswers(servers, sample, unknown, permanentCacheControl),
  });
  return { rows: [...rows, ...scaled.rows], ratioLines: [...ratioLines, ...scaled.ratioLines], notes: [...notes, ...scaled.notes] };
}

// ---------------------------------------------------------------------------------------------
// Metrics cost (ADR 0018): the same app with METRICS_ENABLED=false, in alternating rounds of their own

const METRICS_ROUNDS = envInt('BENCH_METRICS_ROUNDS', 8, 2);
const METRICS_TARGET = 0.03;

/**
 * Cache hits with metrics on (the app of the other rows) against metrics off, BENCH_METRICS_ROUNDS
 * rounds of 2 s each, alternating which goes first. Each round's pair runs back to back, so a burst
 * of other load falls on both; the cost is 1 − the median of the rounds' on/off ratios, of req/s and
 * of server CPU per response (the steadier of the two on a shared machine).
 */
async function metricsCost(setup: Setup, srcDir: string, appOn: Server, hotCodes: readonly string[], hotFile: string): Promise<RatioLine[]> {
  const appOff = await startServer('app (no metrics)', path.join(SUPPORT, 'app-server.mjs'), [srcDir], { env: setup.appEnv({ METRICS_ENABLED: 'false' }), execArgv: setup.execArgv });
  try {
    await primeHot(appOff, hotCodes);
    const rounds: Array<{ on: Measurement; off: Measurement }> = [];
    for (let round = 0; round < METRICS_ROUNDS; round++) {
      const settings = { ...MEASURE, rounds: 1, seconds: 2, warmupSeconds: round === 0 ? MEASURE.warmupSeconds : 0 };
      const order = round % 2 === 0 ? [appOn, appOff] : [appOff, appOn];
      const measured = await compareAll(settings, `(a) metrics on/off, round ${round + 1}`, order, { codesFile: hotFile }, 'redirect');
      rounds.push({ on: measured[order.indexOf(appOn)]!, off: measured[order.indexOf(appOff)]! });
    }
    const rpsRatios = rounds.map(({ on, off }) => rps(on) / rps(off));
    const cpuRatios = rounds.map(({ on, off }) => cpu(on) / cpu(off));
    const cost = 1 - median(rpsRatios);
    const cpuCost = median(cpuRatios) - 1;
    const sum = (pick: (pair: { on: Measurement; off: Measurement }) => number) => rounds.reduce((total, pair) => total + pick(pair), 0);
    return [
      [`cost of metrics, 1 − median on/off req/s, ${METRICS_ROUNDS} rounds (a)`, `${(cost * 100).toFixed(1)} %`, `< ${METRICS_TARGET * 100} %`, verdict(cost < METRICS_TARGET)],
      ['  rounds on/off req/s', rpsRatios.map((r) => r.toFixed(2)).join(' '), '', ''],
      ['  same from server CPU µs/response, median on/off − 1', `${(cpuCost * 100).toFixed(1)} %`, `< ${METRICS_TARGET * 100} %`, verdict(cpuCost < METRICS_TARGET)],
      ['  rounds on/off CPU µs/response', cpuRatios.map((r) => r.toFixed(2)).join(' '), '', ''],
      ['  req/s metrics on / off, all rounds', `${fmtInt(sum(({ on }) => rps(on)) / rounds.length)} / ${fmtInt(sum(({ off }) => rps(off)) / rounds.length)}`, '', ''],
    ];
  } finally {
    await killServer(appOff);
  }
}

// ---------------------------------------------------------------------------------------------
// Create scenarios: (e) anonymous, (f) owned, each beside the bare insert server

/** Rows on disk once the server is gone, by a condition on `links`. */
function countRows(file: string, where = '1'): number {
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM links WHERE ${where}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function createScenarios(setup: Setup): Promise<BenchPart> {
  const dataDir = path.join(setup.tempDir, 'create-data');
  const appConfig = loadConfig({ ...setup.benchEnv, DATA_DIR: dataDir });
  if (appConfig.database.kind !== 'sqlite') throw new Error('the bench needs the embedded SQLite database');
  const bareFile = path.join(setup.tempDir, 'bare-create.db');
  const naiveFile = path.join(setup.tempDir, 'naive-create.db');
  const srcDir = await setup.srcDir;
  console.error('starting create servers');
  const [naive, bare, app] = await Promise.all([
    startServer('naive http', path.join(SUPPORT, 'naive-create-server.mjs'), [naiveFile], {}),
    startServer('bare insert', path.join(SUPPORT, 'bare-create-server.mjs'), [bareFile], {}),
    startServer('app (creates)', path.join(SUPPORT, 'app-server.mjs'), [srcDir],
      { env: setup.appEnv({ DATA_DIR: dataDir, RATE_LIMIT_ANON: '0' }), execArgv: setup.execArgv }),
  ]);
  const servers = { naive, bare, app };
  const token = await registerUser(app.port, 'bench@example.com');

  console.error(`measuring creates with ${LOADGEN}: ${SECONDS} s per server and scenario in ${ROUNDS} round(s) after ${WARMUP_SECONDS} s warm-up, ${CREATE_CONNECTIONS} connections`);
  const counted = async () => ({ naive: await servedCount(naive, '201'), bare: await servedCount(bare, '201'), app: await servedCount(app, '201') });
  let created = await counted();
  // wrk stops with requests in flight: their 201s come after it ends, so the count is read once
  // it has stopped moving (else rows on disk outnumber the 201s counted, with nothing lost).
  const settledCount = async () => {
    let before = await counted();
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = await counted();
      if (now.naive === before.naive && now.bare === before.bare && now.app === before.app) return now;
      before = now;
    }
    return before;
  };
  const createdSince = async () => {
    const now = await settledCount();
    const delta = { naive: now.naive - created.naive, bare: now.bare - created.bare, app: now.app - created.app };
    created = now;
    return delta;
  };
  const sides = [servers.naive, servers.bare, servers.app];
  const [eNaive, eBare, eApp] = await compareAll(MEASURE, `(e) anonymous creates, ${CREATE_CONNECTIONS} conn.`, sides, { create: { path: '/api/urls/public' } }, 'created', CREATE_CONNECTIONS) as [Measurement, Measurement, Measurement];
  const anonymous = await createdSince();
  const [fNaive, fBare, fApp] = await compareAll(MEASURE, `(f) owned creates, ${CREATE_CONNECTIONS} conn.`, sides, { create: { path: '/api/urls', token } }, 'created', CREATE_CONNECTIONS) as [Measurement, Measurement, Measurement];
  const owned = await createdSince();
  const appRss = (await statsOf(app)).rssBytes;

  await Promise.all([killServer(app), killServer(bare), killServer(naive)]);
  const rows = {
    anonymous: countRows(appConfig.database.path, 'owner_id IS NULL'),
    owned: countRows(appConfig.database.path, 'owner_id IS NOT NULL'),
    bare: countRows(bareFile),
    naive: countRows(naiveFile),
  };
  const stored = (name: string, acknowledged: number, onDisk: number): RatioLine =>
    [`rows on disk after SIGKILL, ${name}`, `${fmtInt(onDisk)} of ${fmtInt(acknowledged)} 201s`, 'rows = 201s', verdict(onDisk === acknowledged)];
  const ratio = (app: Measurement, base: Measurement) => rps(app) / rps(base);
  const cpuRatio = (app: Measurement, base: Measurement) => (cpu(base) / cpu(app)).toFixed(2);
  const anonVsNaive = ratio(eApp, eNaive);
  const ownedVsBare = ratio(fApp, fBare);
  const ratioLines: RatioLine[] = [
    ['anonymous creates/s, app (e)', fmtInt(rps(eApp)), `≥ ${fmtInt(TARGETS.anonCreatesPerSecond)}`, verdict(rps(eApp) >= TARGETS.anonCreatesPerSecond)],
    ['anonymous creates vs naive node:http (target ≥ 1.40)', anonVsNaive.toFixed(2), `≥ ${TARGETS.anonVsNaive.toFixed(2)}`, verdict(anonVsNaive >= TARGETS.anonVsNaive)],
    ['  same from server CPU µs/create, naive/app', cpuRatio(eApp, eNaive), '(hardly moved by other load)', ''],
    ['anonymous creates vs bare Fastify insert (e)', ratio(eApp, eBare).toFixed(2), '', ''],
    ['p99 anonymous creates (e)', `${fmtMs(eApp.latencyMs.p99)} ms`, `< ${TARGETS.createP99Ms} ms`, verdict(eApp.latencyMs.p99 < TARGETS.createP99Ms)],
    ['non-201 in (e)', String(eApp.unexpected), '0', verdict(eApp.unexpected === 0)],
    ['owned creates/s, app (f)', fmtInt(rps(fApp)), '', ''],
    ['owned creates vs bare Fastify insert (target ≥ 0.80)', ownedVsBare.toFixed(2), `≥ ${TARGETS.ownedVsBare.toFixed(2)}`, verdict(ownedVsBare >= TARGETS.ownedVsBare)],
    ['  same from server CPU µs/create, bare/app', cpuRatio(fApp, fBare), '(hardly moved by other load)', ''],
    ['owned creates vs naive node:http (f)', ratio(fApp, fNaive).toFixed(2), '', ''],
    ['p99 owned creates (f)', `${fmtMs(fApp.latencyMs.p99)} ms`, `< ${TARGETS.createP99Ms} ms`, verdict(fApp.latencyMs.p99 < TARGETS.createP99Ms)],
    ['non-201 in (f)', String(fApp.unexpected), '0', verdict(fApp.unexpected === 0)],
    stored('app, anonymous', anonymous.app, rows.anonymous),
    stored('app, owned', owned.app, rows.owned),
    stored('bare insert', anonymous.bare + owned.bare, rows.bare),
    stored('naive http', anonymous.naive + owned.naive, rows.naive),
  ];
  const notes = [
    'Creates: every 201 a server sent (warm-up included) against its rows on disk after SIGKILL (acknowledged = stored).',
    'Naive http: node:http + better-sqlite3, WAL, synchronous=FULL, one autocommit INSERT (one fsync) per request, no batching; bare insert: the same on Fastify.',
    `RSS app (creates) after (e)–(f) ${fmtMb(appRss)}.`,
  ];
  return { rows: [eNaive, eBare, eApp, fNaive, fBare, fApp], ratioLines, notes };
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const started = Date.now();
  const tempDir = makeTempDir('linkforge-bench-');
  const benchEnv = appSettings(path.join(tempDir, 'data'), { CLEANUP_ENABLED: 'false' });
  const loadAtStart = loadAverage();
  console.error(`commit ${COMMIT}`);
  console.error(`linkforge redirect bench: node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAtStart}, profile ${PROFILE}, scenarios ${[...SCENARIOS].join(',')}`);
  if (APP_RUNTIME === 'build') console.error('compiling src/ with tsc into the temp dir (in the background)');
  const setup: Setup = {
    tempDir,
    srcDir: APP_RUNTIME === 'build' ? compileAppInBackground(tempDir) : Promise.resolve(path.join(REPO, 'src')),
    benchEnv,
    appEnv: (extra) => ({ ...baseEnv(), ...benchEnv, ...extra }),
    execArgv: APP_RUNTIME === 'tsx' ? ['--import', 'tsx'] : [],
  };
  const parts: BenchPart[] = [];
  if (REDIRECTS) parts.push(await redirectScenarios(setup));
  if (SCENARIOS.has('creates')) parts.push(await createScenarios(setup));
  const rows = parts.flatMap((p) => p.rows);

  console.log(`commit ${COMMIT}`);
  console.log('');
  console.log(`Linkforge redirect bench (profile ${PROFILE}) · node ${process.version} · ${os.cpus().length} CPUs · ${fmtInt(LINK_COUNT)} links (${Math.round(EXPIRING_SHARE * 100)} % expiring → 302, rest → 301)`);
  console.log(`app ${APP_RUNTIME === 'build' ? 'compiled by tsc (as npm start runs it)' : 'run from src/ through tsx'} · load average at start ${loadAtStart}`);
  console.log(`${SECONDS} s measured per row (${ROUNDS > 1 ? `${ROUNDS} rounds, ABBA` : '1 round'}) after ${WARMUP_SECONDS} s warm-up · ${CONNECTIONS} connections for redirects, ${CREATE_CONNECTIONS} for creates · pipelining 1 · ${LOADGEN} in its own process · 127.0.0.1`);
  console.log('');
  printTable(rows);
  console.log('');
  printRatioLines(parts.flatMap((p) => p.ratioLines));
  console.log('');
  const saturated = rows.filter((row) => row.loadCpuPercent >= 90);
  if (saturated.length > 0) {
    console.log(`WARNING: the load generator used ≥ 90 % of a core in ${saturated.map((r) => `${r.scenario.slice(0, 3)} ${r.server}`).join(', ')}:`);
    console.log('         those req/s are what the load generator could send, a floor for the server.');
  }
  for (const note of parts.flatMap((p) => p.notes)) console.log(note);
  console.log(`load average now ${loadAverage()} (other work on this machine skews the figures) · total ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

await runBench(main);
