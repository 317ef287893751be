import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../support/cli.js';
import { eventually } from '../support/redis.js';
import { registerOverHttp, startServer, type ServerProcess } from '../support/server-process.js';
import { onTeardown, suiteScope } from '../support/teardown.js';

/**
 * Two server processes and the CLI on one SQLite file, as a user would run them. Their caches keep
 * links for a day: only the change log each process follows can make one let go of what another
 * changed.
 */
const LONG_CACHE = { CACHE_TTL: '1d', CACHE_NEGATIVE_TTL: '1d', RATE_LIMIT_ANON: '0', ANALYTICS_ENABLED: 'false' };

async function redirect(server: ServerProcess, code: string): Promise<{ status: number; location: string | null }> {
  const response = await fetch(`${server.baseUrl}/${code}`, { redirect: 'manual' });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get('location') };
}

async function api(server: ServerProcess, method: string, url: string, token: string, body?: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const withinOneSecond = (check: () => Promise<boolean>) => eventually(check, 1_000);

describe('two server processes and the CLI on one SQLite file', () => {
  const suite = suiteScope();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-shared-'));
  let a: ServerProcess;
  let b: ServerProcess;
  let token: string;

  before(async () => {
    onTeardown(suite, () => fs.rmSync(dataDir, { recursive: true, force: true }));
    a = await startServer(suite, { ...LONG_CACHE, DATA_DIR: dataDir });
    b = await startServer(suite, { ...LONG_CACHE, DATA_DIR: dataDir });
    token = await registerOverHttp(a);
  });

  test('a code created on A redirects on B within one second, although B answered 404 for it', async () => {
    assert.equal((await redirect(b, 'made-on-a')).status, 404);
    const created = await api(a, 'POST', '/api/urls', token, { url: 'https://example.com/made-on-a', customCode: 'made-on-a' });
    assert.equal(created.status, 201);
    assert.ok(await withinOneSecond(async () => (await redirect(b, 'made-on-a')).status === 301), 'B redirects');
  });

  test('a link deleted on A answers 410 on B within one second', async () => {
    const created = await api(a, 'POST', '/api/urls', token, { url: 'https://example.com/doomed' });
    const link = (await created.json()) as { id: number; shortCode: string };
    assert.equal((await redirect(b, link.shortCode)).status, 301);
    assert.equal((await api(a, 'DELETE', `/api/urls/${link.id}`, token)).status, 204);
    assert.ok(await withinOneSecond(async () => (await redirect(b, link.shortCode)).status === 410), 'B answers 410');
  });

  test('an edit on B changes where A redirects within one second', async () => {
    const created = await api(b, 'POST', '/api/urls', token, { url: 'https://example.com/before' });
    const link = (await created.json()) as { id: number; shortCode: string };
    assert.equal((await redirect(a, link.shortCode)).location, 'https://example.com/before');
    assert.equal((await api(b, 'PATCH', `/api/urls/${link.id}`, token, { url: 'https://example.com/after' })).status, 200);
    assert.ok(await withinOneSecond(async () => (await redirect(a, link.shortCode)).location === 'https://example.com/after'), 'A follows the edit');
  });

  test('a redirect status changed on B is what A answers within one second', async () => {
    const created = await api(b, 'POST', '/api/urls', token, { url: 'https://example.com/status-moves' });
    const link = (await created.json()) as { id: number; shortCode: string };
    assert.equal((await redirect(a, link.shortCode)).status, 301);
    assert.equal((await api(b, 'PATCH', `/api/urls/${link.id}`, token, { redirectStatus: 307 })).status, 200);
    assert.ok(await withinOneSecond(async () => (await redirect(a, link.shortCode)).status === 307), 'A follows the new status');
  });

  test('links imported by the CLI redirect on both servers within one second, although both answered 404 for them', async () => {
    for (const server of [a, b]) assert.equal((await redirect(server, 'kutt-two')).status, 404);
    const imported = await runCli(['import', 'test/fixtures/imports/kutt.csv'], { DATA_DIR: dataDir });
    assert.equal(imported.code, 0, imported.stderr);
    for (const server of [a, b]) {
      assert.ok(await withinOneSecond(async () => (await redirect(server, 'kutt-two')).location === 'https://example.com/two'), server.baseUrl);
    }
  });
});
