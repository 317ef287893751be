/**
 * What routing costs a redirect (ADR 0031): the same hot set of cache hits on two app processes
 * over two copies of one seeded SQLite file, in alternating rounds. On one copy the hot links are
 * plain; on the other each has five routes (country, device and language conditions that the
 * bench's browser request never matches, so every route is tried) and a two-variant split (a
 * visitor id drawn per request: an HMAC of address and User-Agent under the day's salt). The
 * figure is the ratio of server CPU µs per response, routed/plain (target ≤ 1.2), beside req/s.
 *
 *   npx tsx bench/link-options.ts
 *   BENCH_SECONDS=12 BENCH_ROUNDS=4 npx tsx bench/link-options.ts
 *
 * Environment (all optional): BENCH_SECONDS (10), BENCH_ROUNDS (2), BENCH_WARMUP_SECONDS (3),
 * BENCH_CONNECTIONS (50), BENCH_LINKS (20000), BENCH_HOT (1000), BENCH_LOADGEN=wrk|autocannon;
 * BENCH_ANALYTICS=false runs both apps with analytics off: the redirect path alone, without the
 * flusher's work on the visits (a routed visit also writes which destination was served).
 */
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../src/config.js';
import { baseEnv, makeTempDir, runBench, SUPPORT } from './support/children.js';
import { compileAppInBackground } from './support/compile-app.js';
import { envInt, loadAverage } from './support/env.js';
import { get } from './support/http-client.js';
import { chooseLoadgen } from './support/load.js';
import { compare, cpu, fmtInt, fmtMs, primeHot, printRatioLines, printTable, rps, verdict, type MeasureSettings } from './support/measure.js';
import { makeLinks, pick, prepareDatabase, seedDatabase, writeLines } from './support/seed-links.js';
import { seededRandom } from './support/seeded-random.js';
import { appSettings, killServer, startServer } from './support/servers.js';

const SECONDS = envInt('BENCH_SECONDS', 10, 1);
const ROUNDS = envInt('BENCH_ROUNDS', 2, 1);
const LINK_COUNT = envInt('BENCH_LINKS', 20_000, 1_000);
const HOT_COUNT = Math.min(envInt('BENCH_HOT', 1_000, 1), LINK_COUNT);
const MEASURE: MeasureSettings = {
  loadgen: chooseLoadgen(process.env.BENCH_LOADGEN ?? 'auto'), connections: envInt('BENCH_CONNECTIONS', 50, 1),
  seconds: SECONDS, rounds: ROUNDS, warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 3, 0),
};
const TARGET_CPU_RATIO = 1.2;
const APP_SETTINGS = { CLEANUP_ENABLED: 'false', ...(process.env.BENCH_ANALYTICS === 'false' ? { ANALYTICS_ENABLED: 'false' } : {}) };

/** Five routes no bench request matches, then a 50/50 split: the most work a routed hit does. */
function routedOptions(code: string): string {
  return JSON.stringify({
    routes: [
      { country: ['JP', 'KR'], url: `https://example.com/${code}/asia` },
      { device: ['ios'], url: `https://example.com/${code}/ios` },
      { device: ['android'], language: ['pt'], url: `https://example.com/${code}/android-pt` },
      { language: ['ja', 'zh'], url: `https://example.com/${code}/cjk` },
      { country: ['BR'], device: ['mobile'], url: `https://example.com/${code}/br-mobile` },
    ],
    variants: [{ url: `https://example.com/${code}/a`, weight: 1 }, { url: `https://example.com/${code}/b`, weight: 1 }],
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const tempDir = makeTempDir('linkforge-bench-options-');
  const loadAtStart = loadAverage();
  const srcDir = compileAppInBackground(tempDir);
  const plainEnv = appSettings(path.join(tempDir, 'plain'), APP_SETTINGS);
  const routedEnv = appSettings(path.join(tempDir, 'routed'), APP_SETTINGS);
  const random = seededRandom(1);
  const links = makeLinks(LINK_COUNT, 7, random, () => null);
  const hot = pick(links, HOT_COUNT, random);
  for (const env of [plainEnv, routedEnv]) {
    const config = loadConfig(env);
    if (config.database.kind !== 'sqlite') throw new Error('the bench needs the embedded SQLite database');
    seedDatabase(config.database.path, await prepareDatabase(config), links);
  }
  const routedFile = loadConfig(routedEnv).database;
  if (routedFile.kind !== 'sqlite') throw new Error('unreachable');
  const db = new SQLite(routedFile.path);
  const setOptions = db.prepare('update links set options = ? where code = ?');
  db.transaction(() => { for (const link of hot) setOptions.run(routedOptions(link.code), link.code); })();
  db.close();
  const hotFile = writeLines(tempDir, 'hot.txt', hot.map((l) => l.code));

  const appServer = path.join(SUPPORT, 'app-server.mjs');
  const dir = await srcDir;
  const [plain, routed] = await Promise.all([
    startServer('app (plain)', appServer, [dir], { env: { ...baseEnv(), ...plainEnv }, execArgv: [] }),
    startServer('app (routed)', appServer, [dir], { env: { ...baseEnv(), ...routedEnv }, execArgv: [] }),
  ]);
  try {
    const probe = await get(routed.port, `/${hot[0]!.code}`);
    if (probe.status !== 302 || !/\/(a|b)$/.test(probe.location ?? '')) throw new Error(`a routed link answered ${probe.status} ${probe.location ?? ''}, not a 302 to a variant`);
    await primeHot(plain, hot.map((l) => l.code));
    await primeHot(routed, hot.map((l) => l.code));
    const [a, b] = await compare(MEASURE, `cache hits, ${fmtInt(HOT_COUNT)} hot`, plain, routed, { codesFile: hotFile }, 'redirect');
    const cpuRatio = cpu(b) / cpu(a);
    console.log(`Linkforge link-options bench · node ${process.version} · ${os.cpus().length} CPUs · load average at start ${loadAtStart}`);
    console.log(`${SECONDS} s per row in ${ROUNDS} alternating round(s) · ${MEASURE.connections} connections · ${MEASURE.loadgen} · analytics ${APP_SETTINGS.ANALYTICS_ENABLED === 'false' ? 'off' : 'on'}`);
    console.log('');
    printTable([a, b]);
    console.log('');
    printRatioLines([
      ['routed/plain, server CPU µs per response', cpuRatio.toFixed(2), `≤ ${TARGET_CPU_RATIO}`, verdict(cpuRatio <= TARGET_CPU_RATIO)],
      ['routed/plain, req/s', (rps(b) / rps(a)).toFixed(2), '', ''],
      ['p99 routed hits', `${fmtMs(b.latencyMs.p99)} ms`, '', ''],
    ]);
    console.log(`load average now ${loadAverage()} · total ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await Promise.all([killServer(plain), killServer(routed)]);
  }
}

await runBench(main);
