import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { JWT_SECRET_FILE } from '../../src/accounts/jwt-secret.js';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { authGuards, principalOf, requireAdmin, requireDeclaredScopes, requireUser, requireUserOrApiKey } from '../../src/http/auth.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser } from '../support/users.js';
import { onTeardown, suiteScope } from '../support/teardown.js';

describe('auth guards', () => {
  let t: TestApp;
  let probe: FastifyInstance;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { ADMIN_EMAILS: 'root@example.test', RATE_LIMIT_AUTH: '0' });
    probe = Fastify();
    registerErrorHandling(probe);
    const echo = async (request: Parameters<typeof principalOf>[0]) => principalOf(request);
    probe.get('/user', { preHandler: requireUser(t.deps.accounts) }, echo);
    probe.get('/user-or-key', { preHandler: requireUserOrApiKey(t.deps.accounts), config: { apiKeyScope: 'links:read' } }, echo);
    probe.get('/admin', { preHandler: requireAdmin(t.deps.accounts) }, echo);
    onTeardown(suite, () => probe.close());
    await probe.ready();
  });

  const get = (url: string, token?: string) => probe.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

  test('requireUser sets the principal from a JWT and refuses API keys', async () => {
    const user = await registerUser(t.app);
    assert.deepEqual((await get('/user', user.token)).json(), { userId: user.user.id, role: 'user', apiKeyWorkspaceId: null, apiKeyScopes: null });
    const key = await createApiKey(t.app, user.token, user.personalWorkspaceId);
    const refused = await get('/user', key);
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.headers['www-authenticate'], 'Bearer');
  });

  test('requireUserOrApiKey gives an API key its maker, confined to its workspace, never with site-admin rights', async () => {
    const admin = await registerUser(t.app, 'root@example.test');
    const key = await createApiKey(t.app, admin.token, admin.personalWorkspaceId);
    assert.deepEqual((await get('/user-or-key', key)).json(), {
      userId: admin.user.id, role: 'user', apiKeyWorkspaceId: admin.personalWorkspaceId, apiKeyScopes: ['links:read', 'links:write', 'stats:read', 'workspace:admin'],
    });
    assert.deepEqual((await get('/user-or-key', admin.token)).json(), { userId: admin.user.id, role: 'admin', apiKeyWorkspaceId: null, apiKeyScopes: null });
    assert.equal((await get('/user-or-key', 'lfk_' + 'x'.repeat(43))).statusCode, 401, 'an unknown key');
    assert.equal((await get('/user-or-key')).statusCode, 401);
  });

  test('requireAdmin: 401 without a valid session token (an admin\'s API key included), 403 forbidden for a non-admin, 200 for an admin', async () => {
    const none = await get('/admin');
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().code, 'authentication_required');
    assert.equal(none.headers['www-authenticate'], 'Bearer');
    assert.equal((await get('/admin', 'not.a.token')).statusCode, 401);
    const user = await registerUser(t.app);
    const forbidden = await get('/admin', user.token);
    assert.equal(forbidden.statusCode, 403);
    assert.equal(forbidden.json().code, 'permission_denied');
    const admin = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ROOT@example.test', password: 'correct horse battery' } });
    assert.equal(admin.json().user.role, 'admin');
    assert.equal((await get('/admin', admin.json().token)).statusCode, 200);
    const key = await createApiKey(t.app, admin.json().token, (await t.deps.accounts.workspaces.personalWorkspaceId(admin.json().user.id)));
    assert.equal((await get('/admin', key)).statusCode, 401, 'site administration needs a session, not a key');
  });

  test('an app refuses a route that takes API keys without declaring their scope (ADR 0032)', async () => {
    const app = Fastify();
    onTeardown(suite, () => app.close());
    const guards = authGuards(t.deps.accounts);
    requireDeclaredScopes(app, guards);
    app.get('/declared', { preHandler: guards.requireUserOrApiKey, config: { apiKeyScope: 'stats:read' } }, async () => 'ok');
    app.get('/session-only', { preHandler: guards.requireUser }, async () => 'ok');
    assert.throws(() => app.get('/undeclared', { preHandler: [guards.requireUserOrApiKey] }, async () => 'ok'), /GET \/undeclared accepts API keys but declares no config\.apiKeyScope/);
  });
});

describe('the embedded-mode secret across restarts', () => {
  test('is made once in DATA_DIR with mode 0600, and tokens survive a restart', async (context) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-restart-'));
    onTeardown(context, () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const first = await createTestApp(context, { DATA_DIR: dataDir }, { database: 'sqlite' });
      const user = await registerUser(first.app);
      await first.close();
      const file = path.join(dataDir, JWT_SECRET_FILE);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      const secret = fs.readFileSync(file, 'utf8');

    const second = await createTestApp(context, { DATA_DIR: dataDir }, { database: 'sqlite' });
        const me = await second.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(user.token) });
        assert.equal(me.statusCode, 200);
        assert.equal(fs.readFileSync(file, 'utf8'), secret);
        await second.close();
      fs.writeFileSync(file, 'a-freshly-rotated-secret-of-enough-length-42', { mode: 0o600 });
    const rotated = await createTestApp(context, { DATA_DIR: dataDir });
    const signedOut = await rotated.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(user.token) });
    assert.equal(signedOut.statusCode, 401, 'the file is really the key: replacing it signs everyone out');
  });

  test('with JWT_SECRET set, no secret file is written', async (context) => {
    const t = await createTestApp(context, { JWT_SECRET: 'a-configured-secret-that-is-long-enough-1234' });
      await registerUser(t.app);
      assert.equal(fs.existsSync(path.join(t.dataDir, JWT_SECRET_FILE)), false);
  });
});

describe('OpenAPI', () => {
  test('documents the account routes with the JWT and session-cookie security schemes', async (context) => {
    const t = await createTestApp(context);
      const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
      assert.equal(response.statusCode, 200);
      const document = response.json();
      assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['apiKey', 'jwt', 'sessionCookie']);
      for (const path of ['/api/auth/register', '/api/auth/login', '/api/auth/me', '/api/auth/logout', '/api/v1/workspaces', '/api/v1/workspaces/{id}/members',
        '/api/v1/workspaces/{id}/members/{userId}', '/api/v1/workspaces/{id}/api-keys', '/api/v1/workspaces/{id}/api-keys/{keyId}']) {
        assert.ok(document.paths[path], path);
      }
      assert.deepEqual(document.paths['/api/auth/me'].get.security, [{ jwt: [] }, { sessionCookie: [] }]);
      assert.equal(document.components.securitySchemes.sessionCookie.in, 'cookie');
  });
});
