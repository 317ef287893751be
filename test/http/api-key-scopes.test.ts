import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { accountAndLinkRows, createScopedKey, postApiKey } from '../support/scoped-keys.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { suiteScope } from '../support/teardown.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';

const ALL_SCOPES = ['links:read', 'links:write', 'stats:read', 'workspace:admin'];

/** ADR 0032: what a key is made with, how it is listed, and the keys made before scopes existed. */
describe('API keys with scopes and an expiry', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let ws: number;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    owner = await registerUser(t.app);
    ws = owner.personalWorkspaceId;
  });
  const listed = async () => (await t.app.inject({ url: `/api/v1/workspaces/${ws}/api-keys`, headers: bearer(owner.token) })).json().api_keys as Array<Record<string, unknown>>;

  test('a key is made with the scopes and expiry asked for, in canonical order, and listed with them', async () => {
    const expiresAt = new Date(t.clock.now() + 86_400_000).toISOString();
    const response = await postApiKey(t.app, owner.token, ws, { name: 'reporting', scopes: ['stats:read', 'links:read'], expires_at: expiresAt });
    assert.equal(response.statusCode, 201, response.body);
    const created = response.json();
    assert.deepEqual({ scopes: created.scopes, expires_at: created.expires_at }, { scopes: ['links:read', 'stats:read'], expires_at: expiresAt });
    const entry = (await listed()).find((key) => key.id === created.id);
    assert.deepEqual({ scopes: entry?.scopes, expires_at: entry?.expires_at, last_used_at: entry?.last_used_at }, { scopes: ['links:read', 'stats:read'], expires_at: expiresAt, last_used_at: null });
  });

  test('bad scopes or expiries are 400 naming the field, and store nothing', async () => {
    const past = new Date(t.clock.now() - 1000).toISOString();
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ name: 'k', scopes: ['links:read', 'links:delete'] }, 'validation_failed', /scopes/],
      [{ name: 'k', scopes: [] }, 'validation_failed', /scopes/],
      [{ name: 'k', scopes: ['links:read', 'links:read'] }, 'validation_failed', /scopes/],
      [{ name: 'k', expires_at: 'next week' }, 'validation_failed', /expires_at/],
      [{ name: 'k', expires_at: past }, 'api_key_expiry_invalid', /future/],
      [{ name: 'k', expires_at: new Date(t.clock.now()).toISOString() }, 'api_key_expiry_invalid', /future/],
    ];
    for (const [payload, code, detail] of cases) {
      const rowsBefore = await accountAndLinkRows(t.deps);
      const response = await postApiKey(t.app, owner.token, ws, payload);
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.equal(response.json().code, code, response.body);
      assert.match(response.json().detail, detail, response.body);
      assert.deepEqual(await accountAndLinkRows(t.deps), rowsBefore);
    }
  });

  test('a key made without scopes has all four, as every key made before scopes existed has', async () => {
    const response = await postApiKey(t.app, owner.token, ws, { name: 'legacy client' });
    assert.deepEqual(response.json().scopes, ALL_SCOPES);
    // A row written without the column, as before migration 023, gets the column's default.
    await t.deps.database.db.insertInto('api_keys').values({
      workspace_id: ws, name: 'from before', prefix: 'lfk_old00000', secret_hash: 'f'.repeat(64), created_by: owner.user.id, created_at: t.clock.now(), last_used_at: null,
    } as never).execute();
    const old = (await listed()).find((key) => key.name === 'from before');
    assert.deepEqual({ scopes: old?.scopes, expires_at: old?.expires_at }, { scopes: ALL_SCOPES, expires_at: null });
  });

  test('a key without an expiry keeps working; one with an expiry stops at it', async () => {
    const lasting = await createScopedKey(t.app, owner.token, ws, ['links:read']);
    const brief = await createScopedKey(t.app, owner.token, ws, ['links:read'], new Date(t.clock.now() + 1000).toISOString());
    const read = (key: string) => t.app.inject({ url: `/api/v1/workspaces/${ws}/links`, headers: bearer(key) });
    assert.deepEqual([(await read(lasting)).statusCode, (await read(brief)).statusCode], [200, 200]);
    t.clock.advance(1000);
    assert.deepEqual([(await read(lasting)).statusCode, (await read(brief)).statusCode], [200, 401]);
    assert.equal((await read(brief)).json().detail, 'The API key is unknown, revoked or expired.');
  });
});
