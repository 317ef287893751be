/**
 * First load of `/` in Chromium: the bytes the browser transfers (compressed, as sent) and the share
 * of the JavaScript it loads that never runs, from Chromium's own coverage (V8 block coverage through
 * playwright-core). Not part of the test suite.
 *
 *   npx tsx bench/first-load.ts                measures this checkout
 *   npx tsx bench/first-load.ts <git ref>      and, first, the same at an earlier commit, side by side
 *
 * Each checkout is built (scripts/build-ui.mjs), served by its own `src/main.ts` on 127.0.0.1 with a
 * temporary data directory, and loaded once in a fresh profile with the cache disabled; the page
 * counts as loaded when the network has been idle for 500 ms. An earlier commit is checked out with
 * `git worktree add` into a temporary folder (sharing this checkout's node_modules) and removed after.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { freePort } from '../test/support/free-port.js';
import { REPO } from './support/children.js';

const CHROMIUM = '/usr/bin/chromium';

interface Figures {
  readonly label: string;
  readonly jsTransferred: number;
  readonly allTransferred: number;
  readonly jsDecoded: number;
  readonly jsUnused: number;
  readonly encodings: string;
  readonly scripts: number;
}

interface CoverageRange { startOffset: number; endOffset: number; count: number }

/** Bytes of `source` that ran: ranges painted outermost first, so each byte takes its innermost count. */
export function usedBytes(sourceLength: number, functions: { ranges: CoverageRange[] }[]): number {
  const counts = new Int32Array(sourceLength);
  const ranges = functions.flatMap((fn) => fn.ranges)
    .sort((a, b) => a.startOffset - b.startOffset || (b.endOffset - b.startOffset) - (a.endOffset - a.startOffset));
  for (const range of ranges) counts.fill(range.count, range.startOffset, Math.min(range.endOffset, sourceLength));
  return counts.reduce((used, count) => used + (count > 0 ? 1 : 0), 0);
}

async function serve(checkout: string): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  execFileSync(process.execPath, ['scripts/build-ui.mjs'], { cwd: checkout, stdio: ['ignore', 2, 2] });
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-first-load-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: checkout,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir,
      CLEANUP_ENABLED: 'false', HEALTHCHECK_ENABLED: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => { output += chunk; if (output.includes('Linkforge is ready')) resolve(); };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server at ${checkout} exited with ${code}:\n${output}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop: async () => { child.kill('SIGTERM'); await exited; fs.rmSync(dataDir, { recursive: true, force: true }); },
  };
}

async function loadOnce(page: Page, baseUrl: string, label: string): Promise<Figures> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const types = new Map<string, { type: string; encoding: string }>();
  const transferred: { id: string; bytes: number }[] = [];
  cdp.on('Network.responseReceived', (event) => {
    const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    types.set(event.requestId, { type: event.type, encoding: headers['content-encoding'] ?? 'identity' });
  });
  cdp.on('Network.loadingFinished', (event) => transferred.push({ id: event.requestId, bytes: event.encodedDataLength }));
  await page.coverage.startJSCoverage({ resetOnNavigation: false });
  await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
  const coverage = await page.coverage.stopJSCoverage();
  const scripts = coverage.filter((entry) => entry.url.startsWith(baseUrl) && entry.source !== undefined);
  const jsDecoded = scripts.reduce((sum, entry) => sum + Buffer.byteLength(entry.source!), 0);
  // Offsets are in UTF-16 code units; the built bundles are ASCII, so units and bytes agree.
  const jsUsed = scripts.reduce((sum, entry) => sum + usedBytes(entry.source!.length, entry.functions), 0);
  const isScript = (id: string) => types.get(id)?.type === 'Script';
  return {
    label,
    jsTransferred: transferred.filter((t) => isScript(t.id)).reduce((sum, t) => sum + t.bytes, 0),
    allTransferred: transferred.reduce((sum, t) => sum + t.bytes, 0),
    jsDecoded,
    jsUnused: jsDecoded === 0 ? 0 : 1 - jsUsed / jsDecoded,
    encodings: [...new Set([...types.values()].map((t) => `${t.type}:${t.encoding}`))].sort().join(' '),
    scripts: scripts.length,
  };
}

async function measure(checkout: string, label: string): Promise<Figures> {
  const server = await serve(checkout);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    return await loadOnce(await context.newPage(), server.baseUrl, label);
  } finally {
    await browser.close();
    await server.stop();
  }
}

function checkoutOf(ref: string): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-before-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { cwd: REPO, stdio: ['ignore', 2, 2] });
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
  return { dir, remove: () => execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: REPO, stdio: ['ignore', 2, 2] }) };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function print(results: Figures[]): void {
  const rows: [string, (f: Figures) => string][] = [
    ['JavaScript transferred', (f) => kb(f.jsTransferred)],
    ['everything transferred', (f) => kb(f.allTransferred)],
    ['JavaScript decoded', (f) => kb(f.jsDecoded)],
    ['JavaScript unused', (f) => `${(f.jsUnused * 100).toFixed(0)} %`],
    ['scripts loaded', (f) => String(f.scripts)],
    ['encodings', (f) => f.encodings],
  ];
  console.log(`first load of /\t${results.map((r) => r.label).join('\t')}`);
  for (const [name, value] of rows) console.log(`${name}\t${results.map(value).join('\t')}`);
}

const before = process.argv[2];
const results: Figures[] = [];
if (before !== undefined) {
  const checkout = checkoutOf(before);
  try {
    results.push(await measure(checkout.dir, `at ${before}`));
  } finally {
    checkout.remove();
  }
}
results.push(await measure(REPO, 'this checkout'));
print(results);
