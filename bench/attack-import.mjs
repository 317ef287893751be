/**
 * Red-team check of imports (docs/adr/0019): can one registered user's import stall redirects or
 * blow up memory? Not part of the test suite; loopback only, bounded in time.
 *
 *   node bench/attack-import.mjs /work/base        (a checkout before the fix)
 *   node bench/attack-import.mjs .                 (this tree)
 *
 * For each scenario it starts that checkout's server (`node --import tsx src/main.ts`, a fresh
 * DATA_DIR on SQLite, port 18xxx), registers a user, creates one link, then uploads the attack
 * file to `POST /api/v1/workspaces/{id}/imports` while a probe requests the link's redirect one
 * request at a time and the server's RSS is sampled from /proc every 100 ms. A scenario ends when
 * the import is answered or after ATTACK_SECONDS (12), whichever comes first; the server is then
 * stopped (SIGKILL if it does not stop on SIGTERM within 2 s).
 *
 * Scenarios (ATTACK_MB megabytes each, 48 by default, as in the red team's report):
 *   kutt-json-of-empty-objects  `[{},{},…]`: every element a row without address or target
 *   csv-of-empty-rows           `keyword,url` then `,` lines: every row rejected
 *
 * Prints per scenario: the import's answer (status and code, or "no answer"), its time, redirect
 * latency p50/p99/max and how many probes timed out (ATTACK_PROBE_TIMEOUT_MS, 2000), peak RSS and
 * RSS at the end, as one JSON line.
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const checkout = path.resolve(process.argv[2] ?? '.');
const SECONDS = Number(process.env.ATTACK_SECONDS ?? 12);
const MEGABYTES = Number(process.env.ATTACK_MB ?? 48);
const PROBE_TIMEOUT_MS = Number(process.env.ATTACK_PROBE_TIMEOUT_MS ?? 2000);
const PORT = 18_000 + Math.floor(Math.random() * 1000);
const BASE = `http://127.0.0.1:${PORT}`;

const UPLOAD = `
  const { parentPort, workerData: { url, token, file, filename, timeoutMs } } = require('node:worker_threads');
  const fs = require('node:fs');
  (async () => {
    const form = new FormData();
    form.append('file', await fs.openAsBlob(file), filename);
    try {
      const response = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer ' + token }, body: form, signal: AbortSignal.timeout(timeoutMs) });
      const body = await response.json().catch(() => ({}));
      parentPort.postMessage({ status: response.status, code: body.code, rows: body.rows, rejected: body.rejected });
    } catch {
      parentPort.postMessage({ status: 'no answer' });
    }
  })();
`;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function kuttJsonOfEmptyObjects(bytes) {
  return `[${'{},'.repeat(Math.floor(bytes / 3))}{}]`;
}

function csvOfEmptyRows(bytes) {
  return `keyword,url\n${',\n'.repeat(Math.floor(bytes / 2))}`;
}

function rssBytes(pid) {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return Number(line.split(/\s+/)[1]) * 1024;
  } catch {
    return 0;
  }
}

async function startServer(dataDir) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: checkout,
    env: {
      ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: `sqlite:${path.join(dataDir, 'db.sqlite')}`,
      BASE_URL: `http://sho.rt`, LOG_LEVEL: 'silent', BCRYPT_COST: '4', CLEANUP_ENABLED: 'false', HEALTHCHECK_ENABLED: 'false',
      IMPORT_MAX_BYTES: String(64 * 1024 * 1024), SHUTDOWN_GRACE: '2s',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return child;
    } catch { /* not up yet */ }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('the server did not start in 30 s');
}

async function stopServer(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  if (await Promise.race([exited.then(() => true), sleep(2000).then(() => false)])) return;
  child.kill('SIGKILL');
  await exited;
}

async function json(method, url, token, body) {
  const response = await fetch(`${BASE}${url}`, {
    method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

function percentile(sorted, p) {
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function scenario(name, content, filename) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-attack-'));
  const server = await startServer(dataDir);
  const peak = { rss: rssBytes(server.pid) };
  const sampler = setInterval(() => { peak.rss = Math.max(peak.rss, rssBytes(server.pid)); }, 100);
  try {
    const { token } = await json('POST', '/api/auth/register', undefined, { email: `attacker-${Date.now()}@example.com`, password: 'correct horse battery staple' });
    const me = await (await fetch(`${BASE}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).json();
    const workspaceId = me.workspaces[0].id;
    const link = await json('POST', '/api/urls', token, { url: 'https://example.com/probe' });
    const rssBefore = rssBytes(server.pid);

    const deadline = Date.now() + SECONDS * 1000;
    let importDone = false;
    const file = path.join(dataDir, filename);
    fs.writeFileSync(file, content);
    const started = performance.now();
    // The upload runs on a thread of its own, so that sending 48 MB does not delay this thread's probes.
    const uploader = new Worker(UPLOAD, { eval: true, workerData: { url: `${BASE}/api/v1/workspaces/${workspaceId}/imports`, token, file, filename, timeoutMs: SECONDS * 1000 } });
    const importing = new Promise((resolve) => uploader.once('message', resolve))
      .then((answer) => ({ ...answer, ms: Math.round(performance.now() - started) }))
      .finally(() => { importDone = true; });

    const latencies = [];
    let timedOut = 0;
    while (!importDone && Date.now() < deadline) {
      const t0 = performance.now();
      try {
        const response = await fetch(`${BASE}/${link.shortCode}`, { redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (process.env.ATTACK_DEBUG && performance.now() - t0 > 50) console.error(`slow probe at ${Math.round(t0 - started)} ms: ${Math.round(performance.now() - t0)} ms`);
      } catch {
        timedOut += 1;
      }
      await sleep(20);
    }
    const answer = await importing;
    await uploader.terminate();
    const rssAfter = rssBytes(server.pid);
    latencies.sort((a, b) => a - b);
    const ms = (v) => (v === null ? null : Math.round(v * 10) / 10);
    console.log(JSON.stringify({
      checkout, scenario: name, megabytes: MEGABYTES, import: answer,
      redirects: { probes: latencies.length, p50_ms: ms(percentile(latencies, 0.5)), p99_ms: ms(percentile(latencies, 0.99)), max_ms: ms(latencies.at(-1) ?? null), timed_out: timedOut },
      rss_mb: { before: Math.round(rssBefore / 2 ** 20), peak: Math.round(peak.rss / 2 ** 20), end: Math.round(rssAfter / 2 ** 20) },
    }));
  } finally {
    clearInterval(sampler);
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const bytes = MEGABYTES * 1024 * 1024;
await scenario('kutt-json-of-empty-objects', kuttJsonOfEmptyObjects(bytes), 'kutt.json');
await scenario('csv-of-empty-rows', csvOfEmptyRows(bytes), 'links.csv');
