import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer } from '../support/server-process.js';

const createLink = (baseUrl: string, url: string) => fetch(`${baseUrl}/api/urls/public`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }), signal: AbortSignal.timeout(10_000),
});

// SQLite keeps writing to an unlinked file without an error, and all of it is
// gone at the next start. Nothing may be acknowledged once the files on disk are not the open ones.
test('with the database files deleted under it, the server acknowledges no write, is not ready, and says why', { timeout: 60_000 }, async (context) => {
  const server = await startServer(context, { RATE_LIMIT_ANON: '0', LOG_LEVEL: 'info' });
  const first = await createLink(server.baseUrl, 'https://example.com/before');
  assert.equal(first.status, 201);
  assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);

  const file = `${server.dataDir}/linkforge.db`;
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });

  for (let i = 0; i < 5; i++) {
    const refused = await createLink(server.baseUrl, `https://example.com/after/${i}`);
    assert.equal(refused.status, 503, `create ${i} after the files were removed`);
    assert.ok(refused.headers.get('retry-after'));
    const body = (await refused.json()) as { code: string; detail: string };
    assert.equal(body.code, 'store_unavailable');
    assert.match(body.detail, /was deleted/);
  }
  const ready = await fetch(`${server.baseUrl}/readyz`);
  assert.equal(ready.status, 503);
  assert.match(server.output(), /linkforge\.db was deleted while the server had it open/, 'the log says why');
});
