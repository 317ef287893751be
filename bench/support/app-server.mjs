// The real Linkforge app, in its own process so that its RSS, CPU time and event loop are its own.
// Started by the benches as `node bench/support/app-server.mjs <srcDir>`, where srcDir holds
// app.js, config.js and deps.js: the tsc build of src/ (as `npm start` runs it), or src/ itself
// when run under `--import tsx`. Configured only through its environment (the same loadConfig the
// real server uses); listens on 127.0.0.1 on a free port. Sends { type: 'ready', port }, then
// answers as server-stats.mjs says, with cacheSize and event-loop delay besides.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { answerParent } from './server-stats.mjs';

// BENCH_V8_FLAGS: V8 flags set before the app loads, for experiments (e.g. --no-allocation-site-pretenuring).
for (const flag of (process.env.BENCH_V8_FLAGS ?? '').split(' ').filter(Boolean)) v8.setFlagsFromString(flag);

const srcDir = process.argv[2];
const load = (name) => import(pathToFileURL(path.join(srcDir, name)).href);
const [{ buildApp }, { loadConfig }, { createDeps }, governor, tickShape] = await Promise.all([
  load('app.js'), load('config.js'), load('deps.js'), load('heap-governor.js').catch(() => undefined),
  load('tick-object-shape.js').catch(() => undefined),
]);
// as main.ts does, first (a checkout from before it has none); BENCH_KEEP_TICK_SHAPE=false leaves it out, for experiments
if (process.env.BENCH_KEEP_TICK_SHAPE !== 'false') tickShape?.keepTickObjectShape();
// as main.ts does (a checkout from before it has none); BENCH_HEAP_GOVERNOR=false leaves V8's own heap growth, for experiments
if (process.env.BENCH_HEAP_GOVERNOR !== 'false') governor?.startHeapGovernor();

const deps = await createDeps(loadConfig());
const app = await buildApp(deps);
await app.listen({ port: 0, host: '127.0.0.1' });
deps.analytics?.flusher.start(); // as main.ts does: visits are written every ANALYTICS_FLUSH_INTERVAL
const { port } = app.server.address();

const eventLoop = monitorEventLoopDelay({ resolution: 10 });
eventLoop.enable();

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(0), 2_000).unref();
  try {
    await app.close();
    await deps.close();
  } finally {
    process.exit(0);
  }
}

answerParent({
  extra: () => ({
    cacheSize: deps.localCache.size,
    eventLoopDelayP99Ms: eventLoop.percentile(99) / 1e6,
    eventLoopDelayMaxMs: eventLoop.max / 1e6,
    droppedVisits: deps.analytics?.buffer.dropped ?? 0,
    memoryUsage: process.memoryUsage(), // the main thread's V8 heap and its external memory (bench/memory.ts)
  }),
  onReset: () => eventLoop.reset(),
  stop: () => void stop(),
});
process.send?.({ type: 'ready', port });
