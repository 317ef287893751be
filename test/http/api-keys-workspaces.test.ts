import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

describe('API keys (v1)', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const newWorkspace = async (owner: RegisteredUser) =>
    (await call('POST', '/api/v1/workspaces', owner.token, { name: 'Team' })).json().id as number;
  const allKeyRows = () => t.deps.database.db.selectFrom('api_keys').selectAll().orderBy('id').execute();

  test('creating a key answers the secret once: lfk_ + 43 base64url characters, with a short visible prefix', async () => {
    const owner = await registerUser(t.app);
    const response = await call('POST', `/api/v1/workspaces/${owner.personalWorkspaceId}/api-keys`, owner.token, { name: 'deploy script' });
    assert.equal(response.statusCode, 201);
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ['created_at', 'expires_at', 'id', 'key', 'name', 'prefix', 'scopes']);
    assert.deepEqual(body.scopes, ['links:read', 'links:write', 'stats:read', 'workspace:admin'], 'a key made without scopes has them all');
    assert.equal(body.expires_at, null);
    assert.match(body.key, /^lfk_[A-Za-z0-9_-]{43}$/);
    assert.equal(body.prefix, body.key.slice(0, 12));
    assert.equal(body.name, 'deploy script');
    assert.equal(body.created_at, new Date(t.clock.now()).toISOString());
  });

  test('only the SHA-256 hash is stored, and no listing ever shows the secret or the hash', async () => {
    const owner = await registerUser(t.app);
    const ws = owner.personalWorkspaceId;
    const key = await createApiKey(t.app, owner.token, ws);
    const rows = (await allKeyRows()).filter((r) => Number(r.workspace_id) === ws);
    assert.equal(rows.length, 1);
    const hash = createHash('sha256').update(key).digest('hex');
    assert.equal(rows[0]!.secret_hash, hash);
    assert.ok(!JSON.stringify(rows).includes(key.slice(4)), 'the secret is nowhere in the row');
    for (const token of [owner.token, key]) {
      const listing = await call('GET', `/api/v1/workspaces/${ws}/api-keys`, token);
      assert.equal(listing.statusCode, 200);
      assert.ok(!listing.body.includes(key.slice(12)), 'no secret in the listing');
      assert.ok(!listing.body.includes(hash), 'no hash in the listing');
      const [listed] = listing.json().api_keys;
      assert.deepEqual(Object.keys(listed).sort(), ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'scopes']);
    }
  });

  test('a key acts only inside its own workspace, even where its maker is a member', async () => {
    const owner = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const team = await newWorkspace(owner);
    const key = await createApiKey(t.app, owner.token, team);
    assert.equal((await call('GET', `/api/v1/workspaces/${team}/members`, key)).statusCode, 200);
    assert.equal((await call('GET', `/api/v1/workspaces/${team}/api-keys`, key)).statusCode, 200);
    const before = await allKeyRows();
    for (const ws of [owner.personalWorkspaceId, stranger.personalWorkspaceId, 987_654]) {
      assert.equal((await call('GET', `/api/v1/workspaces/${ws}/members`, key)).statusCode, 404, `workspace ${ws}`);
      assert.equal((await call('GET', `/api/v1/workspaces/${ws}/api-keys`, key)).statusCode, 404);
      assert.equal((await call('POST', `/api/v1/workspaces/${ws}/api-keys`, key, { name: 'x' })).statusCode, 404);
    }
    assert.deepEqual(await allKeyRows(), before);
    assert.deepEqual(await t.deps.accounts.workspaces.workspaceIdsOf({ userId: owner.user.id, role: 'user', apiKeyWorkspaceId: team, apiKeyScopes: null }), [team]);
  });

  test('a key cannot mint or revoke keys; members cannot either; outsiders get 404', async () => {
    const owner = await registerUser(t.app);
    const member = await registerUser(t.app);
    const outsider = await registerUser(t.app);
    const ws = await newWorkspace(owner);
    await call('POST', `/api/v1/workspaces/${ws}/members`, owner.token, { email: member.user.email, role: 'member' });
    const key = await createApiKey(t.app, owner.token, ws);
    const keyId = (await call('GET', `/api/v1/workspaces/${ws}/api-keys`, owner.token)).json().api_keys[0].id;
    assert.equal((await call('POST', `/api/v1/workspaces/${ws}/api-keys`, key, { name: 'child' })).statusCode, 403);
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/api-keys/${keyId}`, key)).statusCode, 403);
    assert.equal((await call('POST', `/api/v1/workspaces/${ws}/api-keys`, member.token, { name: 'm' })).statusCode, 403);
    assert.equal((await call('GET', `/api/v1/workspaces/${ws}/api-keys`, member.token)).statusCode, 403);
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/api-keys/${keyId}`, member.token)).statusCode, 403);
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/api-keys/${keyId}`, outsider.token)).statusCode, 404);
    assert.equal((await allKeyRows()).filter((r) => Number(r.workspace_id) === ws).length, 1);
  });

  test('revoking answers 204 and the key stops working at once; a key id from another workspace is a 404', async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const ws = owner.personalWorkspaceId;
    const key = await createApiKey(t.app, owner.token, ws);
    const otherKey = await createApiKey(t.app, other.token, other.personalWorkspaceId);
    const keyId = (await call('GET', `/api/v1/workspaces/${ws}/api-keys`, owner.token)).json().api_keys[0].id;
    const otherKeyId = (await call('GET', `/api/v1/workspaces/${other.personalWorkspaceId}/api-keys`, other.token)).json().api_keys[0].id;

    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/api-keys/${otherKeyId}`, owner.token)).statusCode, 404);
    assert.equal((await call('GET', `/api/v1/workspaces/${other.personalWorkspaceId}/members`, otherKey)).statusCode, 200, 'untouched');

    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/api-keys/${keyId}`, owner.token)).statusCode, 204);
    const revoked = await call('GET', `/api/v1/workspaces/${ws}/members`, key);
    assert.equal(revoked.statusCode, 401);
    assert.equal(revoked.headers['www-authenticate'], 'Bearer');
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/api-keys/${keyId}`, owner.token)).statusCode, 404);
  });

  test('a key stops working when its maker leaves the workspace', async () => {
    const owner = await registerUser(t.app);
    const admin = await registerUser(t.app);
    const ws = await newWorkspace(owner);
    await call('POST', `/api/v1/workspaces/${ws}/members`, owner.token, { email: admin.user.email, role: 'admin' });
    const key = await createApiKey(t.app, admin.token, ws);
    assert.equal((await call('GET', `/api/v1/workspaces/${ws}/members`, key)).statusCode, 200);
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/members/${admin.user.id}`, owner.token)).statusCode, 204);
    assert.equal((await call('GET', `/api/v1/workspaces/${ws}/members`, key)).statusCode, 401);
  });

  test('last_used_at is recorded, at most once a minute', async () => {
    const owner = await registerUser(t.app);
    const ws = owner.personalWorkspaceId;
    const key = await createApiKey(t.app, owner.token, ws);
    const lastUsed = async () => (await call('GET', `/api/v1/workspaces/${ws}/api-keys`, owner.token)).json().api_keys[0].last_used_at;
    assert.equal(await lastUsed(), null);
    const firstUse = t.clock.now();
    await call('GET', '/api/v1/workspaces', key);
    assert.equal(await lastUsed(), new Date(firstUse).toISOString());
    t.clock.advance(30_000);
    await call('GET', '/api/v1/workspaces', key);
    assert.equal(await lastUsed(), new Date(firstUse).toISOString());
    t.clock.advance(30_000);
    await call('GET', '/api/v1/workspaces', key);
    assert.equal(await lastUsed(), new Date(firstUse + 60_000).toISOString());
  });

  test('key names are 1 to 100 characters and not blank; bodies allow no other field', async () => {
    const owner = await registerUser(t.app);
    const url = `/api/v1/workspaces/${owner.personalWorkspaceId}/api-keys`;
    for (const payload of [{ name: '' }, { name: '  ' }, { name: 'x'.repeat(101) }, {}, { name: 'ok', workspace_id: 1 }]) {
      assert.equal((await call('POST', url, owner.token, payload)).statusCode, 400, JSON.stringify(payload));
    }
    assert.equal((await call('POST', url, owner.token, { name: 'x'.repeat(100) })).statusCode, 201);
  });
});
