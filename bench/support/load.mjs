// The load generator: one autocannon run against 127.0.0.1, in a process of its own. Started by
// bench/redirect.ts with one JSON argument:
//   { port, connections, seconds, codesFile?, probeLength? }
// codesFile: one code a line, each request picks one uniformly at random;
// probeLength: each request asks for a fresh random code of that length (never seen before).
// Latency is recorded here at microsecond resolution (autocannon's own histogram keeps whole ms)
// and sent back as a sparse histogram, so that the parent can merge rounds.
// Sends { type: 'result', ... } to the parent over IPC and exits.
import fs from 'node:fs';
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2]);
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const codes = options.codesFile
  ? fs.readFileSync(options.codesFile, 'utf8').split('\n').filter(Boolean).map((code) => `/${code}`)
  : [];

function randomPath() {
  if (options.probeLength) {
    let path = '/';
    for (let i = 0; i < options.probeLength; i++) path += BASE58[(Math.random() * 58) | 0];
    return path;
  }
  return codes[(Math.random() * codes.length) | 0];
}

const MAX_US = 10_000_000;
const latencyUs = new Map();
const statusCounts = {};
let responses = 0;

const cpuStart = process.cpuUsage();
const startedAt = process.hrtime.bigint();
const instance = autocannon({
  url: `http://127.0.0.1:${options.port}`,
  connections: options.connections,
  pipelining: 1,
  duration: options.seconds,
  timeout: 10,
  requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: randomPath() }) }],
}, (error, result) => {
  if (error) {
    console.error(error);
    process.exit(1);
  }
  const cpu = process.cpuUsage(cpuStart);
  const elapsedUs = Number(process.hrtime.bigint() - startedAt) / 1000;
  process.send({
    type: 'result',
    durationSeconds: result.duration,
    responses,
    latencyUs: [...latencyUs],
    statusCounts,
    errors: result.errors,
    timeouts: result.timeouts,
    cpuPercent: (100 * (cpu.user + cpu.system)) / elapsedUs,
  }, () => process.exit(0));
});

instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
  responses++;
  statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
  const us = Math.min(MAX_US, Math.round(responseTimeMs * 1000));
  latencyUs.set(us, (latencyUs.get(us) ?? 0) + 1);
});
