import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { suiteScope } from '../support/teardown.js';

describe('the real server process on a socket', () => {
  let server: ServerProcess;
  const suite = suiteScope();
  // REDIS_URI is a mistake an operator makes: Redis stays off, and the log says which variable was meant.
  before(async () => { server = await startServer(suite, { REDIS_URI: 'redis://127.0.0.1:6379' }); });

  test('the log warns of a variable that looks like ours, and the ready line names the database and Redis', () => {
    const lines = server.output().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string; database?: string; redis?: string });
    assert.ok(lines.some((line) => line.level === 40 && line.msg === 'REDIS_URI is not a Linkforge variable; did you mean REDIS_URL?'), server.output());
    const ready = lines.find((line) => line.msg.startsWith('Linkforge is ready'))!;
    assert.equal(ready.database, `sqlite ${server.dataDir}/linkforge.db`);
    assert.equal(ready.redis, 'off');
    assert.match(ready.msg, /^Linkforge is ready at http:\/\/\S+ \(sqlite /);
    assert.ok(ready.msg.endsWith(` ${server.dataDir}/linkforge.db, Redis off)`), ready.msg);
  });

  const shorten = async (url: string) => {
    const res = await fetch(`${server.baseUrl}/api/urls/public`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }),
    });
    assert.equal(res.status, 201);
    return (await res.json()) as { shortCode: string; originalUrl: string };
  };

  test('a link shortened over HTTP redirects on the socket, before and after it is cached', async () => {
    const link = await shorten('https://example.com/e2e?q=1#section');
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.baseUrl}/${link.shortCode}`, { redirect: 'manual' });
      assert.equal(res.status, 302);
      assert.equal(res.headers.get('location'), 'https://example.com/e2e?q=1#section');
      assert.equal(res.headers.get('cache-control'), 'private, no-cache');
    }
  });

  test('HEAD on the socket answers the redirect without a body', async () => {
    const link = await shorten('https://example.com/head');
    const res = await fetch(`${server.baseUrl}/${link.shortCode}`, { method: 'HEAD', redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), 'https://example.com/head');
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  });

  test('an unknown code is a 404 problem, and a browser gets HTML', async () => {
    const json = await fetch(`${server.baseUrl}/Unknown99`, { redirect: 'manual' });
    assert.equal(json.status, 404);
    assert.equal((await json.json() as { code: string }).code, 'link_not_found');
    const html = await fetch(`${server.baseUrl}/Unknown99`, { headers: { accept: 'text/html' } });
    assert.equal(html.status, 404);
    assert.match(await html.text(), /This link does not exist/);
  });

  test('reserved paths reach their routes, not the short-code lookup', async () => {
    assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
    assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
    assert.equal((await fetch(`${server.baseUrl}/docs`)).status, 200);
    const api = await fetch(`${server.baseUrl}/api`);
    assert.equal(((await api.json()) as { code: string }).code, 'route_not_found');
  });

  test('SIGTERM shuts the server down cleanly with exit code 0', async () => {
    assert.equal(await server.stop(), 0);
    assert.match(server.output(), /shutting down/);
  });
});

describe('start-up refuses a bad configuration', () => {
  test('a short JWT_SECRET stops the process with a clear message', async (context) => {
    await assert.rejects(startServer(context, { JWT_SECRET: 'too-short' }), /JWT_SECRET must be at least 32 characters/);
  });
});
