import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Migrator } from 'kysely';
import { DEFAULT_DOMAIN } from '../../src/core/link.js';
import { openSqlite } from '../../src/storage/database.js';
import { migrationsFor } from '../../src/storage/migrations/index.js';
import { createAnonymousLink, createLink, visit } from '../support/owned-links.js';
import { createSecondInstance } from '../support/second-instance.js';
import { createTestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';
import { onTeardown } from '../support/teardown.js';

// docs/specification.md: links on the default short domain are stored under a fixed key.
describe('links on the default short domain', () => {
  test('keep redirecting and stay listed after a restart on another BASE_URL and PORT', async (context) => {
    const t = await createTestApp(context, { BASE_URL: 'http://localhost:8080', RATE_LIMIT_ANON: '0' });
    const user = await registerUser(t.app);
    const owned = await createLink(t.app, user.token, { url: 'https://example.com/owned' });
    const anonymous = await createAnonymousLink(t.app, 'https://example.com/anonymous');
    await t.app.close();
    await t.deps.close();

    const moved = await createSecondInstance(context, t, { BASE_URL: 'http://localhost:9090' });
      assert.deepEqual(await visit(moved.app, owned.shortCode), { status: 301, location: 'https://example.com/owned', cacheControl: 'public, max-age=300' });
      assert.equal((await visit(moved.app, anonymous.shortCode)).status, 302);
      const listed = await moved.app.inject({ method: 'GET', url: '/api/urls', headers: bearer(user.token) });
      const link = (listed.json() as { items: Array<{ shortCode: string; shortUrl: string; status: string }> }).items[0]!;
      assert.deepEqual([link.shortCode, link.status, link.shortUrl], [owned.shortCode, 'ACTIVE', `http://localhost:9090/${owned.shortCode}`]);
  });

  test('stored under the host of BASE_URL by an earlier version move to the fixed key (migration 003)', async (context) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-domain-'));
    onTeardown(context, () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const file = path.join(dataDir, 'linkforge.db');
    const old = openSqlite(file);
    const migrator = new Migrator({ db: old.db, provider: { getMigrations: async () => migrationsFor('sqlite') } });
    assert.equal((await migrator.migrateTo('002_reaper_indexes')).error, undefined);
    await old.close();
    const raw = new SQLite(file);
    const insert = raw.prepare(`insert into links (domain, code, original_url, normalized_url, link_type, status, created_at, updated_at)
      values (?, ?, ?, ?, 'PERMANENT', 'ACTIVE', 1, 1)`);
    insert.run('localhost:8080', 'kept-8080', 'https://example.com/a', 'https://example.com/a');
    insert.run('localhost:8080', 'both-ports', 'https://example.com/older', 'https://example.com/older');
    insert.run('localhost:9000', 'both-ports', 'https://example.com/newer', 'https://example.com/newer');
    raw.close();

    // An earlier version's SQLite file, written by hand: this migration's test is SQLite's.
    const t = await createTestApp(context, { BASE_URL: 'http://sho.rt' }, { dataDir, database: 'sqlite' });
      const rows = await t.deps.database.db.selectFrom('links').select(['domain', 'code', 'original_url']).orderBy('id').execute();
      assert.deepEqual(rows, [
        { domain: DEFAULT_DOMAIN, code: 'kept-8080', original_url: 'https://example.com/a' },
        { domain: 'localhost:8080', code: 'both-ports', original_url: 'https://example.com/older' },
        { domain: DEFAULT_DOMAIN, code: 'both-ports', original_url: 'https://example.com/newer' },
      ], 'a code held under two old hosts goes to the newest row');
      assert.equal((await visit(t.app, 'kept-8080')).location, 'https://example.com/a');
      assert.equal((await visit(t.app, 'both-ports')).location, 'https://example.com/newer');
  });
});
