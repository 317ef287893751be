// Red-team check of the cap on distinct analytics values (ADR 0021): how much a flood of
// high-cardinality Referer hosts and User-Agents grows the embedded database. Not a test: it prints
// figures. Loopback only, bounded in requests and time.
//
//   node bench/attack-cardinality.mjs /work/base     (the tree before)
//   node bench/attack-cardinality.mjs .              (this tree)
//
// Starts `src/main.ts` of the given checkout (under tsx) on a free loopback port, with its SQLite
// file in a fresh temporary DATA_DIR and ANALYTICS_FLUSH_INTERVAL=200ms, creates one anonymous
// link, then sends ATTACK_HOSTS (100,000) redirects each with a new short Referer host
// (https://h<N>.example.org/), then ATTACK_LONG (20,000) each with a new 500-character
// User-Agent and a new 200-character Referer host. Each phase stops early at ATTACK_SECONDS (25 s)
// and says how many it sent. After each phase it waits until the link's redirect count has them
// all (the flush), checkpoints the WAL and prints the file + WAL size and rows per table.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const checkout = path.resolve(process.argv[2] ?? '.');
const HOSTS = Number(process.env.ATTACK_HOSTS ?? 100_000);
const LONG = Number(process.env.ATTACK_LONG ?? 20_000);
const SECONDS = Number(process.env.ATTACK_SECONDS ?? 25);
const CONNECTIONS = 32;
const TABLES = ['visits', 'visit_facts', 'visit_ranges', 'link_clicks_hourly', 'link_breakdown_daily'];

const require = createRequire(path.join(checkout, 'package.json'));
const SQLite = require('better-sqlite3');

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-attack-'));
const file = path.join(dataDir, 'linkforge.db');
const port = await freePort();
const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: checkout,
  env: {
    ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: `sqlite:${file}`,
    ANALYTICS_FLUSH_INTERVAL: '200ms', CLEANUP_ENABLED: 'false', HEALTHCHECK_ENABLED: 'false', RATE_LIMIT_ANON: '0', LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function request(method, target, headers = {}, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function waitForServer() {
  for (let i = 0; i < 300; i++) {
    try {
      await request('GET', '/healthz');
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('the server did not start');
}

function measure(label) {
  const db = new SQLite(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('wal_checkpoint(TRUNCATE)');
  const rows = Object.fromEntries(TABLES.map((table) => [table, db.prepare(`select count(*) from ${table}`).pluck().get()]));
  db.close();
  const size = (name) => (fs.existsSync(name) ? fs.statSync(name).size : 0);
  const bytes = size(file) + size(`${file}-wal`);
  console.log(`${label}: file + WAL ${(bytes / 1e6).toFixed(2)} MB; rows ${JSON.stringify(rows)}`);
  return { bytes, rows };
}

function redirectCount(linkCode) {
  const db = new SQLite(file, { readonly: true });
  try {
    return db.prepare('select redirect_count from links where code = ?').pluck().get(linkCode);
  } finally {
    db.close();
  }
}

/** Sends `count` redirects of `code`, `headersOf(n)` for the n-th, CONNECTIONS at a time, for SECONDS at most. */
async function flood(code, count, headersOf) {
  const deadline = Date.now() + SECONDS * 1000;
  let next = 0;
  let sent = 0;
  const started = Date.now();
  async function worker() {
    while (next < count && Date.now() < deadline) {
      const n = next++;
      const { status } = await request('GET', `/${code}`, headersOf(n));
      if (status !== 302 && status !== 301) throw new Error(`redirect answered ${status}`);
      sent += 1;
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  console.log(`  sent ${sent} of ${count} redirects in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return sent;
}

async function flushed(code, expected) {
  for (let i = 0; i < 200; i++) {
    if (Number(redirectCount(code)) >= expected) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.log(`  the flush did not count every redirect within 20 s (${redirectCount(code)} of ${expected})`);
}

const longHost = (n) => {
  const tag = `n${n}-`;
  return [tag + 'a'.repeat(60 - tag.length), 'b'.repeat(60), 'c'.repeat(60), 'example.org'].join('.').slice(0, 200);
};
const longAgent = (n) => `Mozilla/5.0 (X11; Linux x86_64; attack ${n}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 `.padEnd(500, 'x');

try {
  await waitForServer();
  const created = await request('POST', '/api/urls/public', { 'content-type': 'application/json' }, JSON.stringify({ url: 'https://example.com/attacked' }));
  const { shortCode } = JSON.parse(created.body);
  console.log(`checkout ${checkout}, link ${shortCode}`);
  const start = measure('before');
  console.log(`phase 1: ${HOSTS} redirects, each with a new short Referer host`);
  const first = await flood(shortCode, HOSTS, (n) => ({ referer: `https://h${n}.example.org/` }));
  await flushed(shortCode, first);
  const afterHosts = measure('after phase 1');
  console.log(`phase 2: ${LONG} redirects, each with a new 500-character agent and 200-character host`);
  const second = await flood(shortCode, LONG, (n) => ({ referer: `https://${longHost(n)}/`, 'user-agent': longAgent(n) }));
  await flushed(shortCode, first + second);
  const afterLong = measure('after phase 2');
  const grew = (from, to) => `+${((to.bytes - from.bytes) / 1e6).toFixed(2)} MB, +${to.rows.link_breakdown_daily - from.rows.link_breakdown_daily} breakdown rows, +${to.rows.visit_facts - from.rows.visit_facts} facts rows`;
  console.log(`growth, phase 1 (${first} short hosts): ${grew(start, afterHosts)}`);
  console.log(`growth, phase 2 (${second} long agents and hosts): ${grew(afterHosts, afterLong)}`);
} finally {
  agent.destroy();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
