// The real Linkforge app, in its own process so that its RSS, CPU time and event loop are its own.
// Started by bench/redirect.ts as `node bench/support/app-server.mjs <srcDir>`, where srcDir holds
// app.js, config.js and deps.js: the tsc build of src/ (as `npm start` runs it), or src/ itself
// when run under `--import tsx`. Configured only through its environment (the same loadConfig the
// real server uses); listens on 127.0.0.1 on a free port. Talks to its parent over IPC:
//   → { type: 'ready', port }
//   ← { type: 'stats', reset? }  → { type: 'stats', rssBytes, heapUsedBytes, cacheSize,
//                                    eventLoopDelayP99Ms, eventLoopDelayMaxMs, cpuPercent, cpuMicros,
//                                    statusCounts }  (all since the last reset)
//   ← { type: 'stop' }            (also on SIGTERM, or when the parent goes away)
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

// Status probe, the same in the bare server: every response passes through writeHead (explicitly,
// or via end()'s implicit headers), so counting there gives exact status counts whatever the load
// generator reports. It costs one property increment per response, on both sides alike.
const statusCounts = {};
const writeHead = http.ServerResponse.prototype.writeHead;
http.ServerResponse.prototype.writeHead = function countingWriteHead(statusCode, ...rest) {
  statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
  return writeHead.call(this, statusCode, ...rest);
};

const srcDir = process.argv[2];
const load = (name) => import(pathToFileURL(path.join(srcDir, name)).href);
const [{ buildApp }, { loadConfig }, { createDeps }] = await Promise.all([load('app.js'), load('config.js'), load('deps.js')]);

const deps = await createDeps(loadConfig());
const app = await buildApp(deps);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address();

const eventLoop = monitorEventLoopDelay({ resolution: 10 });
eventLoop.enable();
let cpuSince = process.cpuUsage();
let cpuSinceAt = process.hrtime.bigint();

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

process.on('message', (message) => {
  if (message.type === 'stop') {
    void stop();
    return;
  }
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage(cpuSince);
  const elapsedUs = Number(process.hrtime.bigint() - cpuSinceAt) / 1000;
  process.send?.({
    type: 'stats',
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    cacheSize: deps.cache.size,
    eventLoopDelayP99Ms: eventLoop.percentile(99) / 1e6,
    eventLoopDelayMaxMs: eventLoop.max / 1e6,
    cpuPercent: (100 * (cpu.user + cpu.system)) / elapsedUs,
    cpuMicros: cpu.user + cpu.system,
    statusCounts,
  });
  if (message.reset) {
    for (const status of Object.keys(statusCounts)) delete statusCounts[status];
    eventLoop.reset();
    cpuSince = process.cpuUsage();
    cpuSinceAt = process.hrtime.bigint();
  }
});
process.on('disconnect', () => void stop());
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.send?.({ type: 'ready', port });
