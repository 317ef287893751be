import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { addMember, allLinkRows, createLink, createWorkspace } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/**
 * ADR 0007, "Who sees and changes what": every link route × every kind of caller. Only the allowed cells succeed; the
 * others answer 404 (401 without credentials; 403 saying why to a member who can see the link) and leave the
 * database exactly as it was.
 */
describe('link ownership: who may read and change which link', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let member: RegisteredUser;
  let stranger: RegisteredUser;
  let outsider: RegisteredUser;
  let team: number;
  let teamKey: string;
  let foreignKey: string;
  let live: { id: number; shortCode: string };
  let deleted: { id: number; shortCode: string };

  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    [owner, member, stranger, outsider] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    team = await createWorkspace(t.app, owner.token, 'team');
    await addMember(t.app, owner.token, team, member.user.email, 'member');
    // The outsider shares another workspace with the owner, but not the link's.
    const otherTeam = await createWorkspace(t.app, owner.token, 'other team');
    await addMember(t.app, owner.token, otherTeam, outsider.user.email, 'admin');
    teamKey = await createApiKey(t.app, owner.token, team);
    foreignKey = await createApiKey(t.app, owner.token, owner.personalWorkspaceId);
    live = await createLink(t.app, owner.token, { url: 'https://example.com/owned/live', workspaceId: team });
    deleted = await createLink(t.app, owner.token, { url: 'https://example.com/owned/deleted', workspaceId: team });
    await t.app.inject({ method: 'DELETE', url: `/api/urls/${deleted.id}`, headers: bearer(owner.token) });
  });

  const appRoutes = (): Array<[string, InjectOptions]> => [
    ['GET one', { method: 'GET', url: `/api/urls/${live.id}` }],
    ['PATCH', { method: 'PATCH', url: `/api/urls/${live.id}`, payload: { url: 'https://evil.example/' } }],
    ['DELETE', { method: 'DELETE', url: `/api/urls/${live.id}` }],
    ['restore', { method: 'POST', url: `/api/urls/${deleted.id}/restore` }],
  ];
  const v1Routes = (workspaceId = team): Array<[string, InjectOptions]> => [
    ['v1 GET one', { method: 'GET', url: `/api/v1/workspaces/${workspaceId}/links/${live.shortCode}` }],
    ['v1 PATCH', { method: 'PATCH', url: `/api/v1/workspaces/${workspaceId}/links/${live.shortCode}`, payload: { original_url: 'https://evil.example/' } }],
    ['v1 DELETE', { method: 'DELETE', url: `/api/v1/workspaces/${workspaceId}/links/${live.shortCode}` }],
    ['v1 restore', { method: 'POST', url: `/api/v1/workspaces/${workspaceId}/links/${deleted.shortCode}/restore` }],
  ];
  const v1WorkspaceRoutes = (): Array<[string, InjectOptions]> => [
    ['v1 create', { method: 'POST', url: `/api/v1/workspaces/${team}/links`, payload: { original_url: 'https://example.com/owned/new' } }],
    ['v1 list', { method: 'GET', url: `/api/v1/workspaces/${team}/links` }],
  ];

  async function expectRefused(routes: Array<[string, InjectOptions]>, authorization: string | undefined, status: number, code?: string) {
    for (const [name, options] of routes) {
      const rowsBefore = await allLinkRows(t.deps);
      const headers = authorization === undefined ? {} : { authorization: `Bearer ${authorization}` };
      const response = await t.app.inject({ ...options, headers });
      assert.equal(response.statusCode, status, `${name}: ${response.body}`);
      if (code) assert.equal(response.json().code, code, name);
      assert.ok(!response.body.includes('owned/live'), `${name} leaks nothing of the link`);
      assert.deepEqual(await allLinkRows(t.deps), rowsBefore, `${name} changed the database`);
    }
  }

  test('another user gets 404 link_not_found on every app route', () => expectRefused(appRoutes(), stranger.token, 404, 'link_not_found'));
  test('a member of another of the owner\'s workspaces gets 404', () => expectRefused(appRoutes(), outsider.token, 404, 'link_not_found'));
  test('a plain member may read, and is told why changes to a link they did not create are refused (403)', async () => {
    await expectRefused(appRoutes().slice(1), member.token, 403, 'link_change_not_allowed');
    await expectRefused(v1Routes().slice(1), member.token, 403, 'link_change_not_allowed');
    const refusal = await t.app.inject({ ...appRoutes()[2]![1], headers: bearer(member.token) });
    assert.equal(refusal.json().detail, 'Only the link\'s creator or a workspace admin can delete it.');
    const read = await t.app.inject({ ...appRoutes()[0]![1], headers: bearer(member.token) });
    assert.equal(read.statusCode, 200);
  });
  test('API keys are refused by the app API (JWT only): 401', () => expectRefused(appRoutes(), teamKey, 401));
  test('anonymous callers get 401 on every route', () => expectRefused([...appRoutes(), ...v1Routes(), ...v1WorkspaceRoutes()], undefined, 401));
  test('an id that does not exist answers like a foreign one', () =>
    expectRefused(appRoutes().map(([name, options]) => [name, { ...options, url: String(options.url).replace(/\/\d+/, '/999999') }]), owner.token, 404, 'link_not_found'));

  test('on v1, non-members and API keys of other workspaces get 404 for the workspace', async () => {
    await expectRefused([...v1Routes(), ...v1WorkspaceRoutes()], stranger.token, 404);
    await expectRefused([...v1Routes(), ...v1WorkspaceRoutes()], foreignKey, 404);
  });

  test('on v1, a link of another workspace named under the caller\'s own workspace is 404 link_not_found', async () => {
    await expectRefused(v1Routes(stranger.personalWorkspaceId), stranger.token, 404, 'link_not_found');
    await expectRefused(v1Routes(owner.personalWorkspaceId), foreignKey, 404, 'link_not_found');
  });

  test('another user\'s list never shows the link', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/urls?q=owned', headers: bearer(stranger.token) });
    assert.deepEqual(response.json().items, []);
  });

  test('the owner and the workspace\'s own API key are allowed on every route', async () => {
    const expected = [200, 200, 204, 200];
    for (const [authorization, routes] of [[owner.token, appRoutes()], [teamKey, v1Routes()]] as const) {
      for (const [index, [name, options]] of routes.entries()) {
        const response = await t.app.inject({ ...options, headers: bearer(authorization) });
        assert.equal(response.statusCode, expected[index], `${name}: ${response.body}`);
      }
      // put the two links back as the other cells expect them
      await t.app.inject({ method: 'POST', url: `/api/urls/${live.id}/restore`, headers: bearer(owner.token) });
      await t.app.inject({ method: 'DELETE', url: `/api/urls/${deleted.id}`, headers: bearer(owner.token) });
    }
  });
});
