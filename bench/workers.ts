/**
 * WORKERS benchmark: cache hits served by the real server (`node dist/src/main.js`, as `npm start`
 * runs it) with WORKERS=1 and WORKERS=2 on one seeded SQLite file, against the bare node:http +
 * Map server (bench/support/bare-server.mjs), in alternating rounds (A B C, C B A, …), driven by
 * wrk on 127.0.0.1 with a browser's User-Agent and Referer (analytics on, as by default).
 * Not part of the test suite.
 *
 *   npx tsx bench/workers.ts
 *
 * Environment (all optional): BENCH_SECONDS (12) measured seconds per server, split into
 * BENCH_ROUNDS (4) rounds; BENCH_WARMUP_SECONDS (3); BENCH_CONNECTIONS (50); BENCH_LINKS (100000);
 * BENCH_HOT (1000) codes the load asks for; BENCH_WORKERS (1,2) the worker counts to compare.
 * Prints the commit, requests/s and p99 per server and round, and the medians of each round's ratio.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { serverRuntime } from '../scripts/runtime-settings.mjs';
import { loadConfig } from '../src/config.js';
import { FAILURE_RESPONSES } from '../src/http/redirect-pages.js';
import { baseEnv, makeTempDir, runBench, SUPPORT, track } from './support/children.js';
import { compileApp } from './support/compile-app.js';
import { envInt, loadAverage } from './support/env.js';
import { load, percentileMs, type RawLoad } from './support/load.js';
import { makeLinks, pick, prepareDatabase, seedDatabase, writeLines } from './support/seed-links.js';
import { seededRandom } from './support/seeded-random.js';
import { startServer } from './support/servers.js';
import { measuredCommit, median } from './support/run-facts.js';
import { get } from './support/http-client.js';

const SECONDS = envInt('BENCH_SECONDS', 12, 1);
const ROUNDS = envInt('BENCH_ROUNDS', 4, 1);
const WARMUP_SECONDS = envInt('BENCH_WARMUP_SECONDS', 3, 0);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 50, 1);
const LINKS = envInt('BENCH_LINKS', 100_000, 1_000);
const HOT = envInt('BENCH_HOT', 1_000, 1);
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? '1,2').split(',').map((n) => Number(n.trim()));

interface Side {
  readonly name: string;
  readonly port: number;
}

function freePortNumber(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function waitUntilAnswering(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await get(port, '/healthz')).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server on port ${port} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The real server, as `npm start` starts it, on the seeded file. */
async function startMain(mainJs: string, dataDir: string, workers: number): Promise<Side & { child: ChildProcess }> {
  const port = await freePortNumber();
  const runtime = serverRuntime({
    ...baseEnv(), DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', WORKERS: String(workers),
    LOG_LEVEL: 'warn', CLEANUP_ENABLED: 'false', HEALTHCHECK_ENABLED: 'false',
  });
  const child = track(spawn(process.execPath, [...runtime.execArgv, mainJs], { env: runtime.env, stdio: ['ignore', 2, 2] }));
  await waitUntilAnswering(port, 60_000);
  // The first worker answers; the others finish starting meanwhile (the warm-up follows).
  if (workers > 1) await new Promise((resolve) => setTimeout(resolve, 5_000));
  return { name: `WORKERS=${workers}`, port, child };
}

const summary = (result: RawLoad) => ({ rps: result.responses / result.durationSeconds, p99: percentileMs(result.latencyUs, 99) });

async function main(): Promise<void> {
  console.log(`commit ${measuredCommit()}, load average ${loadAverage()}, ${LINKS} links, ${HOT} hot codes, ${CONNECTIONS} connections`);
  const tempDir = makeTempDir('linkforge-bench-workers-');
  const dataDir = path.join(tempDir, 'data');
  const config = loadConfig({ DATA_DIR: dataDir });
  const domain = await prepareDatabase(config);
  const random = seededRandom(1);
  const links = makeLinks(LINKS, 7, random, () => null);
  seedDatabase(config.database.kind === 'sqlite' ? config.database.path : '', domain, links);
  const hotFile = writeLines(tempDir, 'hot.txt', pick(links, Math.min(HOT, LINKS), random).map((l) => l.code));
  const linksFile = writeLines(tempDir, 'links.tsv', links.map((l) => `${l.code}\t${l.url}\t-`));
  const bareSetup = writeLines(tempDir, 'bare.json', [JSON.stringify({
    linksFile, permanentCacheControl: `public, max-age=${config.redirect.maxAgeSeconds}`, notFoundBody: FAILURE_RESPONSES.not_found.json.toString('utf8'),
  })]);
  const mainJs = path.join(path.dirname(await compileApp(tempDir)), 'src', 'main.js');
  const bare = await startServer('bare node:http', path.join(SUPPORT, 'bare-server.mjs'), [bareSetup], {});
  const sides: Side[] = [{ name: bare.name, port: bare.port }];
  for (const workers of WORKER_COUNTS) sides.push(await startMain(mainJs, dataDir, workers));
  const options = { loadgen: 'wrk' as const, connections: CONNECTIONS };
  for (const side of sides) await load(side.port, { codesFile: hotFile }, { ...options, seconds: WARMUP_SECONDS });
  const perRound: Record<string, Array<{ rps: number; p99: number }>> = Object.fromEntries(sides.map((s) => [s.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) perRound[side.name]!.push(summary(await load(side.port, { codesFile: hotFile }, { ...options, seconds: Math.max(1, Math.round(SECONDS / ROUNDS)) })));
    console.log(`round ${round + 1}: ${sides.map((s) => `${s.name} ${Math.round(perRound[s.name]![round]!.rps)}/s p99 ${perRound[s.name]![round]!.p99.toFixed(2)} ms`).join(' | ')}`);
  }
  const ratio = (a: string, b: string) => median(perRound[a]!.map((m, i) => m.rps / perRound[b]![i]!.rps));
  for (const side of sides.slice(1)) {
    console.log(`${side.name} vs bare: median ratio ${ratio(side.name, bare.name).toFixed(2)}; p99 median ${median(perRound[side.name]!.map((m) => m.p99)).toFixed(2)} ms`);
  }
  if (sides.length >= 3) console.log(`${sides[2]!.name} vs ${sides[1]!.name}: median ratio ${ratio(sides[2]!.name, sides[1]!.name).toFixed(2)}`);
}

await runBench(main);
