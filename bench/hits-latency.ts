/**
 * The latency of cache hits with analytics on, this tree against another checkout and against
 * itself with analytics off, in alternating rounds (ABC CBA …) in one command. A flush's work on
 * the thread that answers redirects shows in the hits' p99 and p99.9 long before it shows in their
 * req/s; bench/redirect.ts measures one tree only.
 *
 *   npx tsx bench/hits-latency.ts                        (this tree, analytics on and off)
 *   git worktree add /tmp/before <commit>
 *   npx tsx bench/hits-latency.ts /tmp/before            (and the other checkout, analytics on)
 *
 * Seeds BENCH_LINKS (100,000) links, primes BENCH_HOT (1,000) hot codes in each app and drives
 * them with wrk, 50 connections, BENCH_SECONDS (40) measured per app in BENCH_ROUNDS (4) rounds
 * after 3 s of warm-up. Prints each app's req/s, latency percentiles (wrk's, over all its rounds),
 * event-loop delay p99 (sampled every 10 ms, so 10 ms is no delay) and server CPU per response.
 */
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { SUPPORT, baseEnv, makeTempDir, runBench, stopChild } from './support/children.js';
import { compileApp } from './support/compile-app.js';
import { envInt, loadAverage } from './support/env.js';
import { compareAll, fmtInt, fmtMs, primeHot } from './support/measure.js';
import { measuredCommit } from './support/run-facts.js';
import { makeLinks, pick, prepareDatabase, seedDatabase, writeLines } from './support/seed-links.js';
import { seededRandom } from './support/seeded-random.js';
import { appSettings, startServer, type Server } from './support/servers.js';

const LINKS = envInt('BENCH_LINKS', 100_000, 1_000);
const HOT = envInt('BENCH_HOT', 1_000, 1);
const SECONDS = envInt('BENCH_SECONDS', 40, 1);
const ROUNDS = envInt('BENCH_ROUNDS', 4, 1);

async function main(): Promise<void> {
  const other = process.argv[2] === undefined ? undefined : path.resolve(process.argv[2]);
  const tempDir = makeTempDir('linkforge-hits-latency-');
  const env = appSettings(path.join(tempDir, 'data'), { CLEANUP_ENABLED: 'false' });
  const config = loadConfig(env);
  if (config.database.kind !== 'sqlite') throw new Error('the bench needs the embedded SQLite database');
  const domain = await prepareDatabase(config);
  const random = seededRandom(1);
  const links = makeLinks(LINKS, 7, random, () => null);
  seedDatabase(config.database.path, domain, links);
  const hot = pick(links, HOT, random).map((link) => link.code);
  const hotFile = writeLines(tempDir, 'hot.txt', hot);

  const [thisBuild, otherBuild] = await Promise.all([
    compileApp(makeTempDir('linkforge-build-')),
    other === undefined ? undefined : compileApp(makeTempDir('linkforge-build-'), other),
  ]);
  const start = (name: string, srcDir: string, extra: Record<string, string> = {}) =>
    startServer(name, path.join(SUPPORT, 'app-server.mjs'), [srcDir], { env: { ...baseEnv(), ...env, ...extra } });
  const servers: Server[] = [await start('this tree', thisBuild)];
  if (otherBuild !== undefined) servers.push(await start(`${path.basename(other!)}`, otherBuild));
  servers.push(await start('this tree, analytics off', thisBuild, { ANALYTICS_ENABLED: 'false' }));
  for (const server of servers) await primeHot(server, hot);

  console.log(`commit ${measuredCommit()}${other ? ` against ${other}` : ''} · load average at start ${loadAverage()}`);
  console.log(`${fmtInt(HOT)} hot codes of ${fmtInt(LINKS)} · ${SECONDS} s per app in ${ROUNDS} alternating rounds · wrk, 50 connections\n`);
  const settings = { loadgen: 'wrk' as const, connections: 50, seconds: SECONDS, rounds: ROUNDS, warmupSeconds: 3 };
  const measured = await compareAll(settings, 'cache hits', servers, { codesFile: hotFile }, 'redirect');
  console.log(['app'.padEnd(28), 'req/s'.padStart(8), 'p50 ms', 'p99 ms', 'p99.9 ms', 'max ms', 'loop p99 ms', 'CPU µs/resp'].join('  '));
  for (const m of measured) {
    const { p50, p99, p999, max } = m.latencyMs;
    console.log([m.server.padEnd(28), fmtInt(m.requestsPerSecond).padStart(8), ...[p50, p99, p999, max].map((ms) => fmtMs(ms).padStart(6)),
      fmtMs(m.eventLoopDelayP99Ms).padStart(11), m.serverCpuMicrosPerResponse.toFixed(1).padStart(11)].join('  '));
  }
  console.log(`\nload average now ${loadAverage()}`);
  for (const server of servers) await stopChild(server.child);
}

await runBench(main);
