// Red-team figures for the destination health check: can a tarpit starve it, and how hard does it
// hit one host? Starts the server of a checkout (`node --import tsx <checkout>/src/main.ts`, on a
// fresh SQLite file in a temporary directory), creates anonymous links to local targets through the
// API, and watches what reaches the targets once the first scheduled run starts. Loopback only.
//
//   node bench/attack-healthcheck.mjs [checkout]      (default: this one)
//
// Scenario "tarpit": 100 links to a host that accepts and never answers (127.0.0.2), created ahead
// of 20 links to a host that answers at once (127.0.0.3); prints how many good links were asked in
// the first TARPIT_WINDOW seconds. Scenario "rate": 200 links to one quick host (127.0.0.4); prints
// its requests/s over RATE_WINDOW seconds and its busiest second. Each scenario is one server
// process, bounded to its window plus start-up (about 25 s and 15 s).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const TARPIT_WINDOW_S = 20;
const RATE_WINDOW_S = 5;
// The first run starts one interval after start-up; links are created well before it.
const INTERVAL = '8s';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function listen(server, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject).listen(0, host, () => resolve(server.address().port));
  });
}

async function freePort() {
  const server = net.createServer();
  const port = await listen(server, '127.0.0.1');
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A target that records when each request reached it; `answer` false: accept and never answer. */
async function target(host, answer) {
  const hits = [];
  const sockets = new Set();
  const server = answer
    ? http.createServer((request, response) => { hits.push({ at: performance.now(), path: request.url }); response.end('ok'); })
    : net.createServer((socket) => { hits.push({ at: performance.now(), path: '' }); socket.on('error', () => {}); });
  server.on('connection', (socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });
  const port = await listen(server, host);
  return {
    hits,
    url: (p) => `http://${host}:${port}${p}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function startApp() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-attack-hc-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(checkout, 'src/main.ts')], {
    cwd: checkout,
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: `sqlite:${path.join(dir, 'linkforge.db')}`,
      ALLOW_PRIVATE_DESTINATIONS: 'true', RATE_LIMIT_ANON: '0', HEALTHCHECK_INTERVAL: INTERVAL, CLEANUP_ENABLED: 'false',
      LOG_LEVEL: 'silent', REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).status < 500) break;
    } catch { /* not listening yet */ }
    await sleep(100);
  }
  return {
    async shorten(url) {
      const response = await fetch(`${base}/api/urls/public`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
      if (response.status !== 201) throw new Error(`create ${url}: ${response.status} ${await response.text()}`);
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits (at most 60 s) for the first request to any of `targets`, then `seconds` more; returns that first instant. */
async function watchFromFirstHit(targets, seconds) {
  for (let i = 0; i < 600 && targets.every((t) => t.hits.length === 0); i++) await sleep(100);
  const first = Math.min(...targets.flatMap((t) => t.hits.map((hit) => hit.at)));
  if (!Number.isFinite(first)) throw new Error('no check reached any target in 60 s');
  await sleep(Math.max(0, first + seconds * 1000 - performance.now()));
  return first;
}

async function tarpitScenario() {
  const tarpit = await target('127.0.0.2', false);
  const good = await target('127.0.0.3', true);
  const app = await startApp();
  try {
    for (let i = 0; i < 100; i++) await app.shorten(tarpit.url(`/slow/${i}`));
    for (let i = 0; i < 20; i++) await app.shorten(good.url(`/good/${i}`));
    const first = await watchFromFirstHit([tarpit, good], TARPIT_WINDOW_S);
    const inWindow = (hits) => hits.filter((hit) => hit.at <= first + TARPIT_WINDOW_S * 1000);
    const goodAsked = new Set(inWindow(good.hits).map((hit) => hit.path)).size;
    console.log(`tarpit: good links checked in ${TARPIT_WINDOW_S} s: ${goodAsked} of 20; connections to the tarpit: ${inWindow(tarpit.hits).length}`);
  } finally {
    await app.stop();
    await Promise.all([tarpit.close(), good.close()]);
  }
}

async function rateScenario() {
  const host = await target('127.0.0.4', true);
  const app = await startApp();
  try {
    for (let i = 0; i < 200; i++) await app.shorten(host.url(`/page/${i}`));
    const first = await watchFromFirstHit([host], RATE_WINDOW_S);
    const seconds = Array.from({ length: RATE_WINDOW_S }, () => 0);
    for (const hit of host.hits) {
      const second = Math.floor((hit.at - first) / 1000);
      if (second < RATE_WINDOW_S) seconds[second] += 1;
    }
    const total = seconds.reduce((a, b) => a + b, 0);
    console.log(`rate: one host got ${(total / RATE_WINDOW_S).toFixed(1)} requests/s over ${RATE_WINDOW_S} s (busiest second ${Math.max(...seconds)}; per second ${seconds.join(' ')})`);
  } finally {
    await app.stop();
    await host.close();
  }
}

console.log(`checkout: ${checkout}`);
await tarpitScenario();
await rateScenario();
