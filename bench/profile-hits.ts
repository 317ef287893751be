/**
 * Where a cache hit's CPU goes, thread by thread: seeds BENCH_LINKS (100,000) links, starts the
 * compiled app under `node --cpu-prof` (every thread writes its own profile: the main thread and
 * the SQLite writer), drives BENCH_HOT (1,000) hot codes with wrk for BENCH_SECONDS (20) as the
 * redirect bench's hits do (a browser's User-Agent and a Referer), after BENCH_PRIME_SECONDS (0) over
 * all links (a fuller cache and heap), stops the app cleanly and prints
 * each thread's top functions by self time (the .cpuprofile files stay in the printed folder, for
 * Chrome's DevTools). Analytics on unless BENCH_ANALYTICS=false.
 *   npx tsx bench/profile-hits.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { SUPPORT, makeTempDir, runBench, stopChild } from './support/children.js';
import { compileApp } from './support/compile-app.js';
import { envBool, envInt } from './support/env.js';
import { runWrk } from './support/load.js';
import { makeLinks, pick, prepareDatabase, seedDatabase } from './support/seed-links.js';
import { seededRandom } from './support/seeded-random.js';
import { appSettings, startServer, statsOf } from './support/servers.js';

const LINKS = envInt('BENCH_LINKS', 100_000, 1);
const HOT = envInt('BENCH_HOT', 1_000, 1);
const SECONDS = envInt('BENCH_SECONDS', 20, 1);
const ANALYTICS = envBool('BENCH_ANALYTICS', true);
/** Seconds of requests over all links before the hot ones: a full cache, as after a busy day. */
const PRIME_SECONDS = envInt('BENCH_PRIME_SECONDS', 0, 0);

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; hitCount?: number }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; startTime: number; endTime: number }

/** Self samples per function (name, file and line), the largest first, with the share of all samples. */
export function topFunctions(profile: CpuProfile, count: number): string[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfSamples = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byNode.get(id)!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${path.basename(frame.url)}:${frame.lineNumber + 1}`;
    selfSamples.set(key, (selfSamples.get(key) ?? 0) + 1);
  }
  const total = profile.samples.length;
  return [...selfSamples].sort((a, b) => b[1] - a[1]).slice(0, count)
    .map(([key, samples]) => `${((100 * samples) / total).toFixed(1).padStart(5)} %  ${key}`);
}

async function main(): Promise<void> {
  const tempDir = makeTempDir('linkforge-profile-');
  const env = appSettings(path.join(tempDir, 'data'), { CLEANUP_ENABLED: 'false', ANALYTICS_ENABLED: String(ANALYTICS) });
  const config = loadConfig(env);
  if (config.database.kind !== 'sqlite') throw new Error('the profile needs the embedded SQLite database');
  const domain = await prepareDatabase(config);
  const random = seededRandom(1);
  const links = makeLinks(LINKS, 7, random, () => null);
  seedDatabase(config.database.path, domain, links);
  const hotFile = path.join(tempDir, 'hot.txt');
  fs.writeFileSync(hotFile, pick(links, HOT, random).map((l) => l.code).join('\n') + '\n');
  const allFile = path.join(tempDir, 'all.txt');
  fs.writeFileSync(allFile, links.map((l) => l.code).join('\n') + '\n');

  const srcDir = await compileApp(tempDir);
  const profiles = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-profiles-'));
  const app = await startServer('app', path.join(SUPPORT, 'app-server.mjs'), [srcDir],
    { env: { ...process.env, ...env }, execArgv: ['--cpu-prof', `--cpu-prof-dir=${profiles}`] });
  if (PRIME_SECONDS > 0) await runWrk('paths.lua', app.port, 50, PRIME_SECONDS, [allFile]).finished;
  await runWrk('paths.lua', app.port, 50, 3, [hotFile]).finished; // warm-up
  await statsOf(app, true);
  const run = await runWrk('paths.lua', app.port, 50, SECONDS, [hotFile]).finished;
  const stats = await statsOf(app);
  const served = Object.values(stats.statusCounts).reduce((a, b) => a + b, 0);
  await stopChild(app.child); // SIGTERM: the app closes and each thread writes its profile
  console.log(`analytics ${ANALYTICS ? 'on' : 'off'}: ${served} responses in ${SECONDS} s, ${(stats.cpuMicros / served).toFixed(1)} µs CPU per response (all threads), wrk ${run.cpuPercent.toFixed(0)} % CPU, RSS ${(stats.rssBytes / 2 ** 20).toFixed(0)} MiB`);
  for (const file of fs.readdirSync(profiles).sort()) {
    const profile = JSON.parse(fs.readFileSync(path.join(profiles, file), 'utf8')) as CpuProfile;
    const seconds = (profile.endTime - profile.startTime) / 1e6;
    console.log(`\n${file}: ${profile.samples.length} samples over ${seconds.toFixed(1)} s`);
    for (const line of topFunctions(profile, 25)) console.log(line);
  }
  console.log(`\nprofiles kept in ${profiles}`);
}

await runBench(main);
