// Red-team script: does reading a link's statistics stall redirects? Not part of the test suite.
//
//   node bench/attack-stats.mjs [checkout dir, default .]
//   ATTACK_REFERRERS=100000 ATTACK_SECONDS=10 node bench/attack-stats.mjs /work/base
//
// Starts the checkout's server (`node --import tsx src/main.ts` in that directory) on a free
// loopback port with a fresh SQLite file, registers a user and creates two links. One link gets
// ATTACK_REFERRERS distinct referrer hosts in its daily breakdown over the last 30 days (and the
// matching hourly clicks), written straight into the SQLite file while the server runs, as a
// flood of visits with forged Referer headers would leave them. The other link is redirected once,
// so it is in the in-process cache.
//
// Then, on two keep-alive connections: first ATTACK_BASELINE_SECONDS of redirect probes alone
// (one every 5 ms, each waiting for the previous), then ATTACK_SECONDS of the same probes while the
// other connection reads `GET /api/urls/{id}/stats` of the flooded link back to back. Prints the
// stats latency, the server's CPU time per stats read (less noisy than latency on a busy machine),
// and the redirect p50/p99/max of both phases. Only ever talks to 127.0.0.1; stops
// the server it started, by its pid, and removes its files. About 25 s.
//
// Environment (all optional): ATTACK_REFERRERS (100000), ATTACK_SECONDS (10), ATTACK_BASELINE_SECONDS (3).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const checkout = path.resolve(process.argv[2] ?? '.');
const envInt = (name, fallback, min, max) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return value;
};
const REFERRERS = envInt('ATTACK_REFERRERS', 100_000, 1, 1_000_000);
const SECONDS = envInt('ATTACK_SECONDS', 10, 1, 20);
const BASELINE_SECONDS = envInt('ATTACK_BASELINE_SECONDS', 3, 1, 5);
const PROBE_GAP_MS = 5;
const DAY = 86_400_000;
const HOST = '127.0.0.1';

const SQLite = createRequire(path.join(checkout, 'package.json'))('better-sqlite3');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject).listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function request(agent, port, method, url, { body, token } = {}) {
  return new Promise((resolve, reject) => {
    const headers = { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const started = process.hrtime.bigint();
    const req = http.request({ host: HOST, port, method, path: url, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({
        status: res.statusCode, text: Buffer.concat(chunks).toString('utf8'), ms: Number(process.hrtime.bigint() - started) / 1e6,
      }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

async function startServer(dir, port) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: checkout,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env, PORT: String(port), HOST, DATABASE_URL: `sqlite:${path.join(dir, 'linkforge.db')}`, DATA_DIR: dir,
      BCRYPT_COST: '4', RATE_LIMIT_AUTH: '0', RATE_LIMIT_ANON: '0', HEALTHCHECK_ENABLED: 'false', CLEANUP_ENABLED: 'false', LOG_LEVEL: 'warn',
    },
  });
  const deadline = Date.now() + 30_000;
  const agent = new http.Agent();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await request(agent, port, 'GET', '/readyz')).status === 200) return child;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error('the server did not start within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The flood's roll-ups: one row per referrer host, spread over the last 30 days, and each day's clicks. */
function seedReferrers(file, linkId, now) {
  const db = new SQLite(file);
  db.pragma('busy_timeout = 10000');
  const today = now - (now % DAY);
  const breakdown = db.prepare(`insert into link_breakdown_daily (link_id, day_start, dimension, value, visitor_class, clicks)
    values (?, ?, 'referrer', ?, ?, ?)`);
  const hourly = db.prepare(`insert into link_clicks_hourly (link_id, hour_start, visitor_class, clicks) values (?, ?, ?, ?)
    on conflict (link_id, hour_start, visitor_class) do update set clicks = clicks + excluded.clicks`);
  db.transaction(() => {
    for (let i = 0; i < REFERRERS; i++) {
      const day = today - (i % 30) * DAY;
      const visitorClass = i % 10 === 0 ? 'bot' : 'human';
      const clicks = 1 + (i % 5);
      breakdown.run(linkId, day, `r${i}.flood.example`, visitorClass, clicks);
      hourly.run(linkId, day, visitorClass, clicks);
    }
  })();
  db.close();
}

/** CPU time the server process has used so far, in ms (Linux /proc; clock ticks of 10 ms). */
function serverCpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const percentile = (sorted, p) => sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `n=${sorted.length} p50=${percentile(sorted, 0.5).toFixed(1)} ms p99=${percentile(sorted, 0.99).toFixed(1)} ms max=${sorted.at(-1)?.toFixed(1)} ms`;
};

async function probeRedirects(port, code, until) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  while (Date.now() < until) {
    const answer = await request(agent, port, 'GET', `/${code}`);
    if (answer.status < 300 || answer.status >= 400) throw new Error(`redirect probe answered ${answer.status}`);
    times.push(answer.ms);
    await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
  }
  agent.destroy();
  return times;
}

async function readStats(port, token, id, until) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  let topReferrer;
  while (Date.now() < until) {
    const answer = await request(agent, port, 'GET', `/api/urls/${id}/stats`, { token });
    if (answer.status !== 200) throw new Error(`stats answered ${answer.status}: ${answer.text}`);
    times.push(answer.ms);
    topReferrer ??= JSON.parse(answer.text).breakdowns.referrers[0];
  }
  agent.destroy();
  return { times, topReferrer };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-attack-stats-'));
let server;
try {
  const port = await freePort();
  server = await startServer(dir, port);
  const setup = new http.Agent({ keepAlive: true });
  const registered = await request(setup, port, 'POST', '/api/auth/register', { body: { email: 'attack@example.com', password: 'attack-password-1234' } });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${registered.text}`);
  const { token } = JSON.parse(registered.text);
  const create = async (url) => {
    const answer = await request(setup, port, 'POST', '/api/urls', { token, body: { url } });
    if (answer.status !== 201) throw new Error(`create answered ${answer.status}: ${answer.text}`);
    return JSON.parse(answer.text);
  };
  const flooded = await create('https://example.com/flooded');
  const probed = await create('https://example.com/probed');
  const seeding = Date.now();
  seedReferrers(path.join(dir, 'linkforge.db'), flooded.id, Date.now());
  console.log(`checkout ${checkout}: ${REFERRERS.toLocaleString('en-US')} distinct referrers seeded in ${Date.now() - seeding} ms`);
  await request(setup, port, 'GET', `/${probed.shortCode}`); // into the cache
  setup.destroy();

  const baseline = await probeRedirects(port, probed.shortCode, Date.now() + BASELINE_SECONDS * 1000);
  const until = Date.now() + SECONDS * 1000;
  const cpuBefore = serverCpuMs(server.pid);
  const [underStats, stats] = await Promise.all([probeRedirects(port, probed.shortCode, until), readStats(port, token, flooded.id, until)]);
  const cpuPerStats = (serverCpuMs(server.pid) - cpuBefore) / stats.times.length;
  console.log(`top referrer: ${JSON.stringify(stats.topReferrer)}`);
  console.log(`stats GET /api/urls/{id}/stats  ${summary(stats.times)}; server CPU ${cpuPerStats.toFixed(1)} ms per read (probes included)`);
  console.log(`redirect alone                 ${summary(baseline)}`);
  console.log(`redirect while stats are read  ${summary(underStats)}`);
} finally {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    process.kill(server.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (server.exitCode === null) process.kill(server.pid, 'SIGKILL');
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
