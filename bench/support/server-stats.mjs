// The stats side of the IPC protocol every bench server speaks (app-server.mjs, bare-server.mjs,
// bare-create-server.mjs), so that all of them count alike:
//   ← { type: 'stats', reset? }  → { type: 'stats', rssBytes, heapUsedBytes, cpuPercent, cpuMicros,
//                                    statusCounts, ...extra() }  (all since the last reset)
//   ← { type: 'stop' }            (also on SIGTERM, or when the parent goes away)
import http from 'node:http';

// Status probe: every response passes through writeHead (explicitly, or via end()'s implicit
// headers), so counting there gives exact status counts whatever the load generator reports.
// It costs one property increment per response, in every server alike.
const statusCounts = {};
const writeHead = http.ServerResponse.prototype.writeHead;
http.ServerResponse.prototype.writeHead = function countingWriteHead(statusCode, ...rest) {
  statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
  return writeHead.call(this, statusCode, ...rest);
};

/**
 * Answers the parent's messages. `extra()` adds server-specific figures to each stats reply,
 * `onReset()` restarts the server's own counters, `stop()` closes the server and exits.
 */
export function answerParent({ extra = () => ({}), onReset = () => {}, stop }) {
  let cpuSince = process.cpuUsage();
  let cpuSinceAt = process.hrtime.bigint();
  process.on('message', (message) => {
    if (message.type === 'stop') {
      stop();
      return;
    }
    if (message.type !== 'stats') return;
    const cpu = process.cpuUsage(cpuSince);
    const elapsedUs = Number(process.hrtime.bigint() - cpuSinceAt) / 1000;
    const memory = process.memoryUsage();
    process.send?.({
      type: 'stats',
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      cacheSize: 0,
      eventLoopDelayP99Ms: 0,
      eventLoopDelayMaxMs: 0,
      cpuPercent: (100 * (cpu.user + cpu.system)) / elapsedUs,
      cpuMicros: cpu.user + cpu.system,
      statusCounts,
      ...extra(),
    });
    if (message.reset) {
      for (const status of Object.keys(statusCounts)) delete statusCounts[status];
      cpuSince = process.cpuUsage();
      cpuSinceAt = process.hrtime.bigint();
      onReset();
    }
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
