/**
 * Red-team script for the visit pipeline: what hostile Referer and User-Agent headers on redirects
 * do to the server. Not part of the test suite; it prints figures.
 *
 *   node bench/attack-visits.mjs [CHECKOUT] referer      new ~250-character Referer host per redirect
 *   node bench/attack-visits.mjs [CHECKOUT] agent        300 redirects/s, each with a new 8 KB User-Agent
 *   node bench/attack-visits.mjs [CHECKOUT] agent-flood  the same agents as fast as 8 pipelined sockets go
 *
 * CHECKOUT is a Linkforge working tree (default: this one): the server runs from its src/ through
 * tsx, on a SQLite file in a temporary DATA_DIR, on a loopback port. Every mode registers a user
 * and creates one owned link, which every redirect asks for.
 * - referer: ATTACK_SECONDS (20) of redirects on 8 pipelined sockets, each with a new Referer host
 *   (`https://<230 hex digits>N.example.org/`), while one probe socket asks for the same link with a
 *   browser's User-Agent one request at a time; then AFTER_SECONDS (30) with an owned create every
 *   2 s. Prints redirects served, the probe's p50/p99/max, visits counted, the creates' statuses,
 *   the writer's out-of-memory log lines, dropped visits, flush lag and RSS.
 * - agent, agent-flood: ATTACK_SECONDS (20) of redirects with a new 8 KB User-Agent each (at
 *   AGENT_RATE per second, 300, or flat out), while one probe socket asks for the same link with a
 *   browser's User-Agent one request at a time. Prints the probe's p50/p99/max and RSS.
 * Traffic goes to 127.0.0.1 only. Stops its server and deletes its directory at the end.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const mode = args.find((a) => ['referer', 'agent', 'agent-flood'].includes(a)) ?? 'referer';
const checkout = path.resolve(args.find((a) => !['referer', 'agent', 'agent-flood'].includes(a)) ?? '.');
const ATTACK_SECONDS = Number(process.env.ATTACK_SECONDS ?? 20);
const AFTER_SECONDS = Number(process.env.AFTER_SECONDS ?? 30);
const AGENT_RATE = Number(process.env.AGENT_RATE ?? 300);
const SOCKETS = 8;
const PIPELINE = 64;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function rssMb(pid) {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return Math.round(Number(line.split(/\s+/)[1]) / 1024);
  } catch {
    return NaN;
  }
}

async function startServer() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-attack-'));
  const port = await freePort();
  const log = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: checkout,
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: `sqlite:${path.join(dir, 'linkforge.db')}`,
      LOG_LEVEL: 'warn', RATE_LIMIT_ANON: '0', RATE_LIMIT_AUTH: '0', BCRYPT_COST: '4', HEALTHCHECK_ENABLED: 'false',
      CLEANUP_ENABLED: 'false', ALLOW_PRIVATE_DESTINATIONS: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => log.push(String(d)));
  child.stderr.on('data', (d) => log.push(String(d)));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  return {
    base, port, pid: child.pid, log,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => { child.once('exit', resolve); setTimeout(() => { child.kill('SIGKILL'); resolve(); }, 15_000); });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function api(base, method, route, token, body) {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  }).catch((error) => ({ status: `error ${error.name}`, json: async () => ({}) }));
  return { status: response.status, body: await response.json().catch(() => ({})) };
}

/** One socket sending PIPELINE requests at a time until `until`; answers how many responses came back. */
function pipelinedSocket(port, request, until) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answered = 0;
    let outstanding = 0;
    let tail = '';
    const sendBatch = () => {
      if (Date.now() >= until) {
        socket.end();
        return;
      }
      let text = '';
      for (let i = 0; i < PIPELINE; i++) text += request();
      outstanding = PIPELINE;
      socket.write(text);
    };
    socket.on('connect', sendBatch);
    socket.on('data', (chunk) => {
      const text = tail + chunk.toString('latin1');
      const count = text.split('HTTP/1.1 ').length - 1;
      tail = text.slice(-10);
      answered += count;
      outstanding -= count;
      if (outstanding <= 0) sendBatch();
    });
    socket.on('error', () => resolve(answered));
    socket.on('close', () => resolve(answered));
  });
}

/** Redirect latencies (ms) of sequential requests on one kept-alive socket until `until`. */
async function probe(port, code, until) {
  const times = [];
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  while (Date.now() < until) {
    const started = process.hrtime.bigint();
    await new Promise((resolve) => {
      const onData = (chunk) => {
        if (chunk.toString('latin1').includes('HTTP/1.1 ')) {
          socket.off('data', onData);
          resolve();
        }
      };
      socket.on('data', onData);
      socket.write(`GET /${code} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: ${BROWSER}\r\n\r\n`);
    });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    await sleep(20);
  }
  socket.destroy();
  return times.sort((a, b) => a - b);
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]?.toFixed(1);

async function metric(base, name) {
  const text = await fetch(`${base}/metrics`).then((r) => r.text()).catch(() => '');
  const line = text.split('\n').find((l) => l.startsWith(name));
  return line === undefined ? 'n/a' : Number(line.split(' ').pop());
}

const server = await startServer();
const rss = [];
const sampler = setInterval(() => rss.push(rssMb(server.pid)), 1000);
try {
  const { body: auth } = await api(server.base, 'POST', '/api/auth/register', undefined, { email: 'attack@example.com', password: 'correct horse battery' });
  const { body: link } = await api(server.base, 'POST', '/api/urls', auth.token, { url: 'https://example.com/target' });
  const code = link.shortCode;
  console.log(`# ${mode} against ${checkout} (server pid ${server.pid}, RSS at start ${rssMb(server.pid)} MB)`);
  const until = Date.now() + ATTACK_SECONDS * 1000;
  if (mode === 'referer') {
    const hex = crypto.randomBytes(115).toString('hex');
    let n = 0;
    const request = () => `GET /${code} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: ${BROWSER}\r\nReferer: https://${hex}${n++}.example.org/\r\n\r\n`;
    const probed = probe(server.port, code, until);
    const served = (await Promise.all(Array.from({ length: SOCKETS }, () => pipelinedSocket(server.port, request, until)))).reduce((a, b) => a + b, 0);
    const times = await probed;
    console.log(`redirects served in ${ATTACK_SECONDS} s: ${served}`);
    console.log(`probe latency ms during the flood: p50 ${pct(times, 0.5)}, p99 ${pct(times, 0.99)}, max ${times.at(-1)?.toFixed(1)}`);
    const statuses = [];
    const afterUntil = Date.now() + AFTER_SECONDS * 1000;
    for (let i = 0; Date.now() < afterUntil; i++) {
      const { status } = await api(server.base, 'POST', '/api/urls', auth.token, { url: `https://example.com/after/${i}` });
      statuses.push(status);
      await sleep(2000);
    }
    const tally = statuses.reduce((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});
    console.log(`owned creates in the ${AFTER_SECONDS} s after: ${JSON.stringify(tally)}`);
    const { body: after } = await api(server.base, 'GET', `/api/urls/${link.id}`, auth.token);
    console.log(`visits counted on the link: ${after.redirectCount}`);
    console.log(`visits dropped (metric): ${await metric(server.base, 'linkforge_analytics_visits_dropped_total')}`);
    console.log(`flush lag (s): ${await metric(server.base, 'linkforge_analytics_flush_lag_seconds')}`);
  } else {
    const agentBody = crypto.randomBytes(4096).toString('hex');
    let n = 0;
    const agentRequest = () => `GET /${code} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: Mozilla/5.0 (${n++}) ${agentBody}\r\n\r\n`;
    const probed = probe(server.port, code, until);
    let sent = 0;
    if (mode === 'agent-flood') {
      sent = (await Promise.all(Array.from({ length: SOCKETS }, () => pipelinedSocket(server.port, agentRequest, until)))).reduce((a, b) => a + b, 0);
    } else {
      const sockets = Array.from({ length: 4 }, () => net.connect(server.port, '127.0.0.1').on('data', () => {}).on('error', () => {}));
      const interval = 1000 / AGENT_RATE;
      const started = Date.now();
      while (Date.now() < until) {
        const due = Math.floor((Date.now() - started) / interval);
        for (; sent < due; sent++) sockets[sent % 4].write(agentRequest());
        await sleep(5);
      }
      sockets.forEach((s) => s.destroy());
    }
    const times = await probed;
    console.log(`agent requests: ${sent}; probe requests: ${times.length}`);
    console.log(`probe latency ms: p50 ${pct(times, 0.5)}, p99 ${pct(times, 0.99)}, max ${times.at(-1)?.toFixed(1)}`);
    await sleep(3000);
    console.log(`visits dropped (metric): ${await metric(server.base, 'linkforge_analytics_visits_dropped_total')}`);
  }
  const oom = server.log.join('').split('ERR_WORKER_OUT_OF_MEMORY').length - 1;
  console.log(`writer out-of-memory log lines: ${oom}; 500 log lines: ${server.log.join('').split('"statusCode":500').length - 1}`);
  console.log(`RSS MB: min ${Math.min(...rss)}, max ${Math.max(...rss)}, end ${rssMb(server.pid)}`);
} finally {
  clearInterval(sampler);
  await server.stop();
}
