import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LogDestination } from '../../src/logging/log-destination.js';
import { createLogging } from '../../src/logging/logger.js';
import { onTeardown, type TeardownScope } from '../support/teardown.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { insertLink } from '../support/links.js';
import { listenLocally } from '../support/scrape.js';

interface LogLine { level: number; msg: string; reqId?: string; code?: string; status?: number }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A test app whose log (the production logger, at `level`) goes to a file the test reads; closed when `scope` ends. */
async function appWithLogFile(scope: TeardownScope, level: string, env: Record<string, string> = {}): Promise<{ t: TestApp; lines(): LogLine[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-reqid-'));
  const file = path.join(dir, 'app.log');
  const fd = fs.openSync(file, 'w');
  onTeardown(scope, () => {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const { logger } = createLogging(level, new LogDestination(fd));
  const t = await createTestApp(scope, { LOG_LEVEL: level, ...env }, { logger });
  return {
    t,
    lines: () => fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as LogLine),
  };
}

describe('request ids', () => {
  test('a short, safe X-Request-Id is kept: the answer echoes it and every line of the request carries it', async (context) => {
    const log = await appWithLogFile(context, 'debug');
    const response = await log.t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'edge-7f3a.42:b' } });
    assert.equal(response.headers['x-request-id'], 'edge-7f3a.42:b');
    const lines = log.lines().filter((line) => line.reqId === 'edge-7f3a.42:b');
    assert.deepEqual(lines.map((line) => line.msg), ['incoming request', 'request completed']);
  });

  test('a missing, long or unsafe X-Request-Id is replaced by a fresh UUID, different for every request', async (context) => {
    const log = await appWithLogFile(context, 'info');
    const ids: string[] = [];
    for (const incoming of [undefined, undefined, 'a'.repeat(65), 'two words', 'quote"d', 'line\\nbreak', 'caf\u00e9', '']) {
      // Not /healthz: at info the health polls log nothing (see below).
      const response = await log.t.app.inject({ url: '/api/instance', headers: incoming === undefined ? {} : { 'x-request-id': incoming } });
      const id = String(response.headers['x-request-id']);
      assert.match(id, UUID, `for ${JSON.stringify(incoming)}`);
      ids.push(id);
    }
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.equal(log.lines().filter((line) => line.reqId === id).length, 2);
    assert.ok(log.lines().filter((line) => line.msg === 'incoming request').every((line) => line.reqId !== undefined));
  });
});

describe('health polls', () => {
  test('at info, /healthz and /readyz log nothing, while other routes log their request lines', async (context) => {
    const log = await appWithLogFile(context, 'info');
    for (const url of ['/healthz', '/readyz', '/healthz']) assert.equal((await log.t.app.inject({ url })).statusCode, 200);
    assert.deepEqual(log.lines().filter((line) => line.level === 30), []);
    assert.equal((await log.t.app.inject({ url: '/api/instance' })).statusCode, 200);
    assert.deepEqual(log.lines().map((line) => line.msg), ['incoming request', 'request completed']);
  });
});

describe('the redirect responder\'s log', () => {
  test('at debug, one line per redirect on the real server, with the request id the answer carries', async (context) => {
    const log = await appWithLogFile(context, 'debug');
    const link = await insertLink(log.t.deps);
    const base = await listenLocally(log.t.app);
    const given = await fetch(`${base}/${link.code}`, { redirect: 'manual', headers: { 'x-request-id': 'from-proxy-1' } });
    assert.equal(given.status, 301);
    assert.equal(given.headers.get('x-request-id'), 'from-proxy-1');
    const fresh = await fetch(`${base}/unknown42`, { redirect: 'manual' });
    assert.equal(fresh.status, 404);
    await fresh.arrayBuffer();
    const freshId = fresh.headers.get('x-request-id')!;
    assert.match(freshId, UUID);
    const redirects = log.lines().filter((line) => line.msg === 'redirect answered');
    assert.deepEqual(redirects.map(({ reqId, code, status, level }) => ({ reqId, code, status, level })), [
      { reqId: 'from-proxy-1', code: link.code, status: 301, level: 20 },
      { reqId: freshId, code: 'unknown42', status: 404, level: 20 },
    ]);
  });

  test('at info, redirects on the real server log nothing and carry no request id header', async (context) => {
    const log = await appWithLogFile(context, 'info');
    const link = await insertLink(log.t.deps);
    const base = await listenLocally(log.t.app);
    const before = log.lines().length;
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${base}/${i % 2 === 0 ? link.code : 'unknown43'}`, { redirect: 'manual' });
      await response.arrayBuffer();
      assert.equal(response.headers.get('x-request-id'), null);
    }
    assert.deepEqual(log.lines().slice(before), []);
  });

  test('a lookup that fails (503) logs at error with the request id its answer carries', async (context) => {
    const log = await appWithLogFile(context, 'info');
    const link = await insertLink(log.t.deps);
    const base = await listenLocally(log.t.app);
    await log.t.deps.database.close();
    const response = await fetch(`${base}/${link.code}`, { redirect: 'manual', headers: { 'x-request-id': 'outage-1' } });
    assert.equal(response.status, 503);
    await response.arrayBuffer();
    assert.equal(response.headers.get('x-request-id'), 'outage-1');
    const failures = log.lines().filter((line) => line.msg === 'redirect lookup failed');
    assert.deepEqual(failures.map(({ level, reqId }) => ({ level, reqId })), [{ level: 50, reqId: 'outage-1' }]);
  });
});
