import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { addMember, allLinkRows, createLink, createWorkspace } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/**
 * The bulk routes × every kind of caller, as link-ownership.test.ts does for single links: only the
 * allowed cells succeed, every refusal leaves the database exactly as it was.
 */
describe('bulk link actions and export: who may act on which links', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let member: RegisteredUser;
  let stranger: RegisteredUser;
  let admin: RegisteredUser;
  let team: number;
  let otherTeam: number;
  let teamKey: string;
  let ownersLinks: number[];
  let membersLink: number;

  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    [owner, member, stranger, admin] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    team = await createWorkspace(t.app, owner.token, 'team');
    otherTeam = await createWorkspace(t.app, owner.token, 'other team');
    await addMember(t.app, owner.token, team, member.user.email, 'member');
    await addMember(t.app, owner.token, otherTeam, member.user.email, 'member');
    await addMember(t.app, owner.token, team, admin.user.email, 'admin');
    teamKey = await createApiKey(t.app, owner.token, team);
    ownersLinks = [];
    for (const n of [1, 2, 3]) ownersLinks.push((await createLink(t.app, owner.token, { url: `https://example.com/bulk/owner/${n}`, workspaceId: team })).id);
    membersLink = (await createLink(t.app, member.token, { url: 'https://example.com/bulk/member', workspaceId: team })).id;
  });

  const bulk = (payload: Record<string, unknown>): InjectOptions => ({ method: 'POST', url: '/api/urls/bulk', payload });
  const exportOf = (payload: Record<string, unknown>): InjectOptions => ({ method: 'POST', url: '/api/urls/export', payload: { format: 'csv', ...payload } });
  const changeRoutes = (ids: number[]): Array<[string, InjectOptions]> => [
    ['delete ids', bulk({ action: 'delete', ids })],
    ['restore ids', bulk({ action: 'restore', ids })],
    ['move ids', bulk({ action: 'move', ids, workspaceId: otherTeam })],
    ['delete matching', bulk({ action: 'delete', matching: { workspaceId: team, q: 'bulk' } })],
  ];
  const readRoutes = (ids: number[]): Array<[string, InjectOptions]> => [
    ['export ids', exportOf({ ids })],
    ['export matching', exportOf({ matching: { workspaceId: team } })],
  ];

  async function expectRefused(routes: Array<[string, InjectOptions]>, token: string | undefined, status: number, code?: string): Promise<string[]> {
    const details: string[] = [];
    for (const [name, options] of routes) {
      const rowsBefore = await allLinkRows(t.deps);
      const response = await t.app.inject({ ...options, headers: token === undefined ? {} : bearer(token) });
      assert.equal(response.statusCode, status, `${name}: ${response.body}`);
      if (code) assert.equal(response.json().code, code, name);
      assert.ok(!response.body.includes('bulk/owner'), `${name} leaks nothing of the links`);
      assert.deepEqual(await allLinkRows(t.deps), rowsBefore, `${name} changed the database`);
      details.push(response.json().detail);
    }
    return details;
  }

  test('anonymous callers and API keys get 401 on every bulk route (JWT only)', async () => {
    await expectRefused([...changeRoutes(ownersLinks), ...readRoutes(ownersLinks)], undefined, 401);
    await expectRefused([...changeRoutes(ownersLinks), ...readRoutes(ownersLinks)], teamKey, 401);
  });

  test('a stranger gets 404 for links of a workspace they are not in, and for the workspace itself', async () => {
    await expectRefused([...changeRoutes(ownersLinks).slice(0, 2), readRoutes(ownersLinks)[0]!], stranger.token, 404, 'link_not_found');
    await expectRefused([...changeRoutes(ownersLinks).slice(2), readRoutes(ownersLinks)[1]!], stranger.token, 404, 'workspace_not_found');
    await expectRefused([['move into their own workspace', bulk({ action: 'move', ids: ownersLinks, workspaceId: stranger.personalWorkspaceId })]], stranger.token, 404, 'link_not_found');
  });

  test('a plain member is told why a change that touches a colleague\'s link is refused, and nothing changes', async () => {
    const details = await expectRefused(changeRoutes([ownersLinks[0]!, membersLink]), member.token, 403, 'link_change_not_allowed');
    assert.equal(details[0], '1 of the 2 links were created by someone else: only their creator or a workspace admin can delete them. Nothing was changed.');
    assert.match(details[3]!, /^3 of the 4 links were created by someone else/);
  });

  test('a plain member may export what they may read, and delete, restore and move their own links', async () => {
    for (const [name, options] of readRoutes(ownersLinks)) {
      const response = await t.app.inject({ ...options, headers: bearer(member.token) });
      assert.equal(response.statusCode, 200, `${name}: ${response.body}`);
    }
    for (const [action, expected] of [['delete', 1], ['restore', 1], ['move', 1]] as const) {
      const response = await t.app.inject({ ...bulk({ action, ids: [membersLink], workspaceId: otherTeam }), headers: bearer(member.token) });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { matched: 1, changed: expected, ids: [membersLink] });
    }
    const moved = await t.app.inject({ method: 'GET', url: `/api/urls/${membersLink}`, headers: bearer(member.token) });
    assert.equal(moved.json().workspaceId, otherTeam);
  });

  test('a workspace admin changes anyone\'s links in bulk', async () => {
    const deleted = await t.app.inject({ ...bulk({ action: 'delete', ids: ownersLinks }), headers: bearer(admin.token) });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.equal(deleted.json().changed, 3);
    const restored = await t.app.inject({ ...bulk({ action: 'restore', ids: ownersLinks }), headers: bearer(admin.token) });
    assert.equal(restored.json().changed, 3);
  });

  test('moving to a workspace the caller is not in is 404; to one that has the URL already, 409 and nothing moves', async () => {
    await expectRefused([['move to a stranger\'s workspace', bulk({ action: 'move', ids: ownersLinks, workspaceId: stranger.personalWorkspaceId })]], owner.token, 404, 'workspace_not_found');
    const twin = await createLink(t.app, owner.token, { url: 'https://example.com/bulk/owner/1', workspaceId: otherTeam });
    await expectRefused([['move onto an existing URL', bulk({ action: 'move', ids: ownersLinks, workspaceId: otherTeam })]], owner.token, 409, 'url_already_shortened');
    await t.app.inject({ method: 'DELETE', url: `/api/urls/${twin.id}`, headers: bearer(owner.token) });
  });

  test('a selection is named by ids or by matching, exactly one, and at most 1000 links', async () => {
    await expectRefused([
      ['neither', bulk({ action: 'delete' })],
      ['both', bulk({ action: 'delete', ids: ownersLinks, matching: {} })],
    ], owner.token, 400, 'bulk_selection_invalid');
    const tooMany = Array.from({ length: 1001 }, (_, i) => i + 1);
    const [detail] = await expectRefused([['1001 ids', bulk({ action: 'delete', ids: tooMany })]], owner.token, 400, 'validation_failed');
    assert.match(detail!, /1000/);
    await expectRefused([['move without a workspace', bulk({ action: 'move', ids: ownersLinks })]], owner.token, 400, 'validation_failed');
  });

  test('more than 1000 matching links is a 400 bulk_too_many, and nothing changes', async () => {
    const crowded = await createWorkspace(t.app, owner.token, 'crowded');
    const now = t.clock.now();
    await t.deps.database.db.insertInto('links').values(Array.from({ length: 1001 }, (_, i) => ({
      domain: 'default', code: `crowd-${i}`, original_url: `https://example.com/crowd/${i}`, normalized_url: `https://example.com/crowd/${i}`,
      link_type: 'PERMANENT' as const, status: 'ACTIVE' as const, workspace_id: crowded, owner_id: owner.user.id,
      claim_token_hash: null, created_at: now, updated_at: now, expires_at: null, deleted_at: null, destination_status: null, last_checked_at: null,
    }))).execute();
    const [detail] = await expectRefused([
      ['delete 1001 matching', bulk({ action: 'delete', matching: { workspaceId: crowded } })],
      ['export 1001 matching', exportOf({ matching: { workspaceId: crowded } })],
    ], owner.token, 400, 'bulk_too_many');
    assert.equal(detail, 'More than 1000 links match; narrow the filter. Nothing was changed.');
    await t.app.inject({ ...bulk({ action: 'delete', matching: { workspaceId: crowded, q: 'crowd-100' } }), headers: bearer(owner.token) })
      .then((response) => assert.equal(response.json().changed, 2, 'crowd-100 and crowd-1000: a narrower filter goes through'));
  });

  test('the owner deletes every matching link in one call and restores them by the ids it answered', async () => {
    const deleted = await t.app.inject({ ...bulk({ action: 'delete', matching: { workspaceId: team, q: 'bulk/owner' } }), headers: bearer(owner.token) });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(deleted.json(), { matched: 3, changed: 3, ids: ownersLinks });
    const gone = await t.app.inject({ method: 'GET', url: `/api/urls?status=DELETED&workspaceId=${team}`, headers: bearer(owner.token) });
    assert.equal(gone.json().total, 3);
    for (const { shortCode } of gone.json().items as Array<{ shortCode: string }>) {
      assert.equal((await t.app.inject({ method: 'GET', url: `/${shortCode}` })).statusCode, 410);
    }
    const restored = await t.app.inject({ ...bulk({ action: 'restore', ids: deleted.json().ids }), headers: bearer(owner.token) });
    assert.equal(restored.json().changed, 3);
    const active = await t.app.inject({ method: 'GET', url: `/api/urls?status=ACTIVE&workspaceId=${team}&q=bulk/owner`, headers: bearer(owner.token) });
    assert.equal(active.json().total, 3);
  });

  test('an export is a file of the selected links in the format asked for', async () => {
    const csv = await t.app.inject({ ...exportOf({ ids: ownersLinks.slice(0, 2) }), headers: bearer(owner.token) });
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.match(String(csv.headers['content-disposition']), /attachment; filename="linkforge-links\.csv"/);
    const lines = csv.body.trim().split('\n');
    assert.equal(lines.length, 3, csv.body);
    assert.match(lines[1]!, /example\.com\/bulk\/owner\/1/);
    const json = await t.app.inject({ ...exportOf({ format: 'json', matching: { workspaceId: team, q: 'owner/3' } }), headers: bearer(owner.token) });
    assert.match(String(json.headers['content-type']), /^application\/x-ndjson/);
    const [header, ...rows] = json.body.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.ok(header);
    assert.deepEqual(rows.map((row) => row.url), ['https://example.com/bulk/owner/3']);
  });
});
