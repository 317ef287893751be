import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { sql } from 'kysely';
import { mountSmallFilesystem } from '../support/small-filesystem.js';
import { createTestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';

// A full disk is a failing dependency: 503, never 500 (docs/operations.md, "The embedded database").
test('on a full disk every write answers 503, never 500; after space is freed writes resume and the file is intact', { timeout: 120_000 }, async (context) => {
  const disk = mountSmallFilesystem(context, '3m', 'fullfs');
  const t = await createTestApp(context, { RATE_LIMIT_ANON: '0', RATE_LIMIT_AUTH: '0' }, { dataDir: disk.dir });
  const owner = await registerUser(t.app);
  const acknowledged: string[] = [];
  const create = async (i: number) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: `https://example.com/full/${i}` } });
    if (response.statusCode === 201) acknowledged.push(response.json().shortCode);
    return response;
  };
  for (let i = 0; i < 20; i++) assert.equal((await create(i)).statusCode, 201);

  const filler = disk.fill();
  // Pages the WAL already has can take a few more writes; the first that needs space fails.
  let i = 20;
  let refused = await create(i);
  while (refused.statusCode === 201 && i < 5_000) refused = await create(++i);
  assert.equal(refused.statusCode, 503, refused.body);
  assert.equal(refused.json().code, 'store_unavailable');
  assert.ok(refused.headers['retry-after']);

  const statuses = [];
  statuses.push((await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'full@example.test', password: 'correct horse battery' } })).statusCode);
  statuses.push((await t.app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: bearer(owner.token), payload: { name: 'full' } })).statusCode);
  statuses.push((await t.app.inject({ method: 'POST', url: '/api/urls', headers: bearer(owner.token), payload: { url: 'https://example.com/owned-on-full-disk' } })).statusCode);
  for (let j = 0; j < 10; j++) statuses.push((await create(++i)).statusCode);
  assert.deepEqual(statuses, statuses.map(() => 503), `register, workspace, owned and anonymous creates on a full disk: ${statuses.join(' ')}`);

  fs.rmSync(filler);
  assert.equal((await create(++i)).statusCode, 201, 'writes resume once there is space');
  assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: 'full@example.test', password: 'correct horse battery' } })).statusCode, 201);
  const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(t.deps.database.db);
  assert.deepEqual(integrity.rows, [{ integrity_check: 'ok' }]);
  const stored = await t.deps.database.db.selectFrom('links').select('code').where('code', 'in', acknowledged).execute();
  assert.equal(stored.length, acknowledged.length, 'every acknowledged create is stored');
});
