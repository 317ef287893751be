import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink, HOUR, iso, linkRow, visit } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

describe('DELETE and restore, app API and v1', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  const remove = (token: string, id: number) => t.app.inject({ method: 'DELETE', url: `/api/urls/${id}`, headers: bearer(token) });
  const restore = (token: string, id: number) => t.app.inject({ method: 'POST', url: `/api/urls/${id}/restore`, headers: bearer(token) });

  test('301 → delete → 410 deleted → restore → 301, each answered by the very next redirect', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/cycle' });
    assert.equal((await visit(t.app, link.shortCode)).status, 301);

    const deleted = await remove(user.token, link.id);
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    const row = await linkRow(t.deps, link.id);
    assert.equal(row.status, 'DELETED');
    assert.equal(Number(row.deleted_at), t.clock.now());
    const gone = await t.app.inject({ method: 'GET', url: `/${link.shortCode}` });
    assert.equal(gone.statusCode, 410);
    assert.equal(gone.json().reason, 'deleted');

    const restored = await restore(user.token, link.id);
    assert.equal(restored.statusCode, 200);
    assert.equal(restored.json().status, 'ACTIVE');
    assert.equal(restored.json().deletedAt, null);
    assert.equal((await linkRow(t.deps, link.id)).deleted_at, null);
    assert.deepEqual(await visit(t.app, link.shortCode), { status: 301, location: 'https://example.com/cycle', cacheControl: 'public, max-age=300' });
  });

  test('deleting twice is harmless: 204 again, and the first deletion time stays', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/twice' });
    await remove(user.token, link.id);
    const firstDeletedAt = (await linkRow(t.deps, link.id)).deleted_at;
    t.clock.advance(1000);
    assert.equal((await remove(user.token, link.id)).statusCode, 204);
    assert.equal((await linkRow(t.deps, link.id)).deleted_at, firstDeletedAt);
  });

  test('restoring a link that is not deleted is 409 link_not_deleted and changes nothing', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/alive' });
    const before = await linkRow(t.deps, link.id);
    const response = await restore(user.token, link.id);
    assert.equal(response.statusCode, 409);
    assert.equal(response.json().code, 'link_not_deleted');
    assert.deepEqual(await linkRow(t.deps, link.id), before);
  });

  test('a restored link keeps its expiry: past it, it answers 410 expired', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/brief', expiresAt: iso(t.clock.now() + HOUR) });
    await remove(user.token, link.id);
    t.clock.advance(2 * HOUR);
    assert.equal((await restore(user.token, link.id)).json().status, 'EXPIRED');
    const response = await t.app.inject({ method: 'GET', url: `/${link.shortCode}` });
    assert.equal(response.statusCode, 410);
    assert.equal(response.json().reason, 'expired');
  });

  test('a purged link can no longer be restored: 404', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/purged' });
    await remove(user.token, link.id);
    await t.deps.database.db.deleteFrom('links').where('id', '=', link.id).execute();
    assert.equal((await restore(user.token, link.id)).statusCode, 404);
  });

  test('v1 reads, deletes and restores by workspace and code, with the workspace\'s API key', async () => {
    const user = await registerUser(t.app);
    const key = await createApiKey(t.app, user.token, user.personalWorkspaceId);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/v1/cycle' });
    const url = `/api/v1/workspaces/${user.personalWorkspaceId}/links/${link.shortCode}`;
    const read = await t.app.inject({ method: 'GET', url, headers: bearer(key) });
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.json(), {
      short_code: link.shortCode, short_url: `http://sho.rt/${link.shortCode}`, domain: 'sho.rt', original_url: 'https://example.com/v1/cycle',
      normalized_url: 'https://example.com/v1/cycle', status: 'ACTIVE', tags: [], created_at: iso(t.clock.now()), expires_at: null,
      redirect_count: 0, avg_redirect_ms: 0, human_count: 0, destination_status: null, last_checked_at: null, redirect_status: null, preview: null, max_clicks: null, clicks_left: null, fallback_url: null, routes: [], variants: [], has_password: false, confirm_before_redirect: false,
    });
    assert.equal((await visit(t.app, link.shortCode)).status, 301);
    assert.equal((await t.app.inject({ method: 'DELETE', url, headers: bearer(key) })).statusCode, 204);
    assert.equal((await linkRow(t.deps, link.id)).status, 'DELETED');
    assert.equal((await visit(t.app, link.shortCode)).status, 410);
    const restored = await t.app.inject({ method: 'POST', url: `${url}/restore`, headers: bearer(key) });
    assert.equal(restored.statusCode, 200);
    assert.equal((await visit(t.app, link.shortCode)).status, 301);
  });
});
