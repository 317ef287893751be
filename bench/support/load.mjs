// The autocannon load generator: one run against 127.0.0.1, in a process of its own. Started by
// bench/support/load.ts with one JSON argument:
//   { port, connections, seconds, rate?, codesFile? | probeLength? | create? }
// codesFile: one code a line, each request GETs one uniformly at random;
// probeLength: each request GETs a fresh random code of that length (never seen before);
// create: { path, nonce, token? }: each request POSTs a URL never sent before (as create.lua does);
// rate: requests per second over all connections (unset: as fast as the server answers).
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

// What a browser following a shared link sends (as paths.lua): the analytics buffer keeps both headers.
const BROWSER_HEADERS = {
  'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  referer: 'https://news.example/item?id=1',
};

let created = 0;
function nextRequest(request) {
  if (!options.create) return { ...request, path: randomPath(), headers: BROWSER_HEADERS };
  const { path, nonce, token } = options.create;
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  return { ...request, method: 'POST', path, headers, body: JSON.stringify({ url: `https://example.com/bench/${nonce}/${++created}` }) };
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
  overallRate: options.rate > 0 ? options.rate : undefined,
  timeout: 10,
  requests: [{ method: 'GET', setupRequest: nextRequest }],
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
