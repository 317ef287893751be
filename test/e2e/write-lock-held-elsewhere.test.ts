import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createTestApp } from '../support/test-app.js';
import { insertLink } from '../support/links.js';
import { onTeardown } from '../support/teardown.js';

const HOLD_MS = 3_000;

/** Another process (a backup, an operator's shell) that takes SQLite's write lock and keeps it. */
async function holdWriteLock(file: string): Promise<{ child: ChildProcess; released: Promise<void> }> {
  const script = `
    import SQLite from 'better-sqlite3';
    const db = new SQLite(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE');
    console.log('locked');
    setTimeout(() => { db.exec('COMMIT'); db.close(); console.log('released'); }, ${HOLD_MS});`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const saw = (word: string) => new Promise<void>((resolve, reject) => {
    const check = () => { if (output.includes(word)) resolve(); };
    child.stdout!.on('data', (chunk) => { output += chunk; check(); });
    child.once('exit', () => (output.includes(word) ? resolve() : reject(new Error(`lock holder exited before "${word}"`))));
  });
  const locked = saw('locked');
  const released = saw('released');
  await locked;
  return { child, released };
}

// A lock held elsewhere delays writes, never reads, and never the event loop.
test('while another process holds the write lock, redirects keep their latency and a create answers 503 after the write timeout', { timeout: 60_000 }, async (context) => {
  const t = await createTestApp(context, { DB_WRITE_TIMEOUT: '1s', RATE_LIMIT_ANON: '0' });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const cached = await insertLink(t.deps);
  assert.equal((await t.app.inject({ url: `/${cached.code}` })).statusCode, 301);
  const uncached = await Promise.all(Array.from({ length: 20 }, () => insertLink(t.deps)));

  const lock = await holdWriteLock(t.config.database.kind === 'sqlite' ? t.config.database.path : assert.fail());
  onTeardown(context, async () => {
    if (lock.child.exitCode === null) {
      lock.child.kill();
      await once(lock.child, 'exit');
    }
  });
  loop.enable();
  const started = Date.now();
  const create = t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/while-locked' } })
    .then((response) => ({ response, ms: Date.now() - started }));

  let slowest = 0;
  for (const link of [cached, ...uncached, cached, ...uncached]) {
    const before = Date.now();
    const answer = await t.app.inject({ url: `/${link.code}` });
    slowest = Math.max(slowest, Date.now() - before);
    assert.equal(answer.statusCode, 301, 'cached and uncached links redirect while the lock is held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const { response, ms } = await create;
  loop.disable();
  assert.equal(response.statusCode, 503, response.body);
  assert.equal(response.headers['retry-after'], '5');
  assert.equal(response.json().code, 'store_unavailable');
  assert.ok(ms >= 900 && ms < HOLD_MS, `the create waited for the write timeout, not for the lock (${ms} ms)`);
  assert.ok(slowest < 500, `slowest redirect during the lock: ${slowest} ms`);
  assert.ok(loop.max / 1e6 < 200, `the event loop stalled for ${(loop.max / 1e6).toFixed(0)} ms`);
  assert.equal(await t.deps.database.db.selectFrom('links').select('id').where('original_url', '=', 'https://example.com/while-locked').executeTakeFirst(), undefined,
    'the refused create stored nothing');

  await lock.released;
  const after = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/after-lock' } });
  assert.equal(after.statusCode, 201, 'writes resume once the lock is released');
});
