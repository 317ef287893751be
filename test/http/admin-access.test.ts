import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { allLinkRows, createLink } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const ADMIN = `operator-${process.pid}@example.test`;

/**
 * Every route of the operator's API × every kind of caller. A site admin is answered; anyone else
 * (signed out, a bad token, a member, an admin's own API key) gets exactly the 404 of a route that
 * does not exist, and the database is left as it was, even for a malformed request.
 */
describe('the operator\'s API answers site admins only, and 404 to everyone else', () => {
  let t: TestApp;
  let admin: RegisteredUser;
  let member: RegisteredUser;
  let adminKey: string;
  let code: string;

  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { ADMIN_EMAILS: ADMIN, RATE_LIMIT_AUTH: '0' });
    admin = await registerUser(t.app, ADMIN);
    member = await registerUser(t.app);
    adminKey = await createApiKey(t.app, admin.token, admin.personalWorkspaceId);
    code = (await createLink(t.app, member.token, { url: 'https://example.com/member/page' })).shortCode;
  });

  const routes = (): Array<[string, InjectOptions, number]> => [
    ['overview', { method: 'GET', url: '/api/admin/overview' }, 200],
    ['blocklist', { method: 'GET', url: '/api/admin/blocklist?q=x' }, 200],
    ['users', { method: 'GET', url: '/api/admin/users?q=example' }, 200],
    ['cleanup stats', { method: 'GET', url: '/api/admin/cleanup/stats' }, 200],
    ['cleanup runs', { method: 'GET', url: '/api/admin/cleanup/runs?limit=5' }, 200],
    ['cleanup run', { method: 'POST', url: '/api/admin/cleanup/run' }, 200],
    ['link', { method: 'GET', url: `/api/admin/links/${code}` }, 200],
    ['disable link', { method: 'POST', url: `/api/admin/links/${code}/disable`, payload: { reason: 'Phishing' } }, 200],
    ['enable link', { method: 'POST', url: `/api/admin/links/${code}/enable` }, 200],
    ['disable user', { method: 'POST', url: `/api/admin/users/${member.user.id}/disable` }, 200],
    ['enable user', { method: 'POST', url: `/api/admin/users/${member.user.id}/enable` }, 200],
  ];
  // Malformed for an admin (400), yet the same 404 for anyone else: the guard runs before validation.
  const malformed = (): Array<[string, InjectOptions, number]> => [
    ['disable link without a reason', { method: 'POST', url: `/api/admin/links/${code}/disable`, payload: {} }, 400],
    ['users with an unknown parameter', { method: 'GET', url: '/api/admin/users?role=admin' }, 400],
  ];

  const snapshot = async () => ({
    links: await allLinkRows(t.deps),
    users: await t.deps.database.db.selectFrom('users').selectAll().orderBy('id').execute(),
    runs: await t.deps.database.db.selectFrom('cleanup_runs').selectAll().orderBy('id').execute(),
  });

  async function expectNotFound(authorization: string | undefined) {
    for (const [name, options] of [...routes(), ...malformed()]) {
      const before = await snapshot();
      const response = await t.app.inject({ ...options, headers: authorization === undefined ? {} : bearer(authorization) });
      assert.equal(response.statusCode, 404, `${name}: ${response.body}`);
      const unknown = await t.app.inject({ method: options.method, url: (options.url as string).split('?')[0]!.replace('/api/admin/', '/api/nothing/') });
      assert.deepEqual(Object.keys(response.json()).sort(), Object.keys(unknown.json()).sort(), name);
      assert.equal(response.json().code, 'route_not_found', name);
      assert.equal(response.headers['www-authenticate'], undefined, `${name} does not ask for credentials`);
      assert.deepEqual(await snapshot(), before, `${name} changed the database`);
    }
  }

  test('a signed-out visitor gets 404 on every route', () => expectNotFound(undefined));
  test('a token that does not verify gets 404 on every route', () => expectNotFound('not.a.jwt'));
  test('a signed-in member gets 404 on every route', () => expectNotFound(member.token));
  test('an admin\'s API key gets 404 on every route (the operator\'s API takes the session token only)', () => expectNotFound(adminKey));

  test('a site admin is answered on every route, and told what is malformed', async () => {
    for (const [name, options, status] of [...routes(), ...malformed()]) {
      const response = await t.app.inject({ ...options, headers: bearer(admin.token) });
      assert.equal(response.statusCode, status, `${name}: ${response.body}`);
    }
  });
});
