/**
 * Cache hits after the app has been used a little and left idle, as a real instance is before a
 * link is shared: with and without the tick object main.ts keeps alive (docs/adr/0037). Each round
 * starts a fresh app (analytics on) on an empty database, creates BENCH_LINKS (200) links through
 * the API one request at a time, leaves the app idle for BENCH_IDLE_SECONDS (20; V8's memory reducer
 * first looks about 8 s after a full collection, and its collections run then), and drives wrk on those links for BENCH_SECONDS (10) as the
 * redirect bench's hits do. BENCH_ROUNDS (3) alternating rounds of each; prints every round's
 * requests/s and server CPU per response, the medians and their ratio, and the commit.
 *   npx tsx bench/idle-then-hits.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { SUPPORT, baseEnv, makeTempDir, runBench, stopChild } from './support/children.js';
import { compileApp } from './support/compile-app.js';
import { envInt } from './support/env.js';
import { postJson } from './support/http-client.js';
import { runWrk } from './support/load.js';
import { measuredCommit, median } from './support/run-facts.js';
import { appSettings, startServer, statsOf } from './support/servers.js';

const LINKS = envInt('BENCH_LINKS', 200, 1);
const IDLE_SECONDS = envInt('BENCH_IDLE_SECONDS', 20, 0);
const SECONDS = envInt('BENCH_SECONDS', 10, 1);
const ROUNDS = envInt('BENCH_ROUNDS', 3, 1);

interface Round { readonly perSecond: number; readonly cpuMicros: number }

async function round(tempDir: string, srcDir: string, keep: boolean, index: number): Promise<Round> {
  const env = appSettings(path.join(tempDir, `data-${index}-${keep}`), { CLEANUP_ENABLED: 'false', RATE_LIMIT_ANON: '0' });
  const app = await startServer('app', path.join(SUPPORT, 'app-server.mjs'), [srcDir],
    { env: { ...baseEnv(), ...env, BENCH_KEEP_TICK_SHAPE: String(keep) } });
  try {
    const codes: string[] = [];
    for (let i = 0; i < LINKS; i++) {
      const link = await postJson<{ shortCode: string }>(app.port, '/api/urls/public', { url: `https://example.com/idle/${index}/${i}` }, 201);
      codes.push(link.shortCode);
    }
    const codesFile = path.join(tempDir, `codes-${index}-${keep}.txt`);
    fs.writeFileSync(codesFile, codes.join('\n') + '\n');
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    await statsOf(app, true);
    await runWrk('paths.lua', app.port, 50, SECONDS, [codesFile]).finished;
    const stats = await statsOf(app);
    const served = Object.values(stats.statusCounts).reduce((a, b) => a + b, 0);
    return { perSecond: served / SECONDS, cpuMicros: stats.cpuMicros / served };
  } finally {
    await stopChild(app.child);
  }
}

async function main(): Promise<void> {
  const commit = measuredCommit();
  const tempDir = makeTempDir('linkforge-idle-hits-');
  const srcDir = await compileApp(tempDir);
  const results: Record<'kept' | 'not kept', Round[]> = { kept: [], 'not kept': [] };
  for (let index = 0; index < ROUNDS; index++) {
    for (const keep of [false, true]) {
      const result = await round(tempDir, srcDir, keep, index);
      results[keep ? 'kept' : 'not kept'].push(result);
      console.log(`round ${index + 1}, tick object ${keep ? 'kept    ' : 'not kept'}: ${Math.round(result.perSecond)} req/s, ${result.cpuMicros.toFixed(1)} µs CPU per response`);
    }
  }
  const [kept, notKept] = [median(results.kept.map((r) => r.perSecond)), median(results['not kept'].map((r) => r.perSecond))];
  const [keptCpu, notKeptCpu] = [median(results.kept.map((r) => r.cpuMicros)), median(results['not kept'].map((r) => r.cpuMicros))];
  console.log(`commit ${commit}: medians ${Math.round(notKept)} → ${Math.round(kept)} req/s (${(kept / notKept).toFixed(2)} ×), ${notKeptCpu.toFixed(1)} → ${keptCpu.toFixed(1)} µs CPU per response`);
}

await runBench(main);
