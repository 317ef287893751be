import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

describe('workspaces and members (v1)', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const createWorkspace = async (owner: RegisteredUser, name = 'Team') => {
    const response = await call('POST', '/api/v1/workspaces', owner.token, { name });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as number;
  };
  const addMember = (owner: RegisteredUser, workspaceId: number, who: RegisteredUser, role: string) =>
    call('POST', `/api/v1/workspaces/${workspaceId}/members`, owner.token, { email: who.user.email, role });
  const membersOf = async (workspaceId: number) => (await t.deps.database.db.selectFrom('workspace_members')
    .select(['user_id', 'role']).where('workspace_id', '=', workspaceId).orderBy('user_id').execute())
    .map((m) => ({ userId: Number(m.user_id), role: m.role }));

  test('POST creates a workspace with the caller as owner, in snake_case', async () => {
    const owner = await registerUser(t.app);
    const response = await call('POST', '/api/v1/workspaces', owner.token, { name: '  Marketing  ' });
    assert.equal(response.statusCode, 201);
    const body = response.json();
    assert.deepEqual(body, { id: body.id, name: 'Marketing', is_personal: false, role: 'owner', created_at: new Date(t.clock.now()).toISOString() });
    assert.equal(response.headers.location, `/api/v1/workspaces/${body.id}`);
    assert.deepEqual(await membersOf(body.id), [{ userId: owner.user.id, role: 'owner' }]);
  });

  test('workspace names are 1 to 100 characters, not blank; unknown fields are refused', async () => {
    const owner = await registerUser(t.app);
    assert.equal((await call('POST', '/api/v1/workspaces', owner.token, { name: 'x'.repeat(100) })).statusCode, 201);
    for (const payload of [{ name: '' }, { name: 'x'.repeat(101) }, { name: '   ' }, {}, { name: 'ok', is_personal: true }, { name: 5 }]) {
      assert.equal((await call('POST', '/api/v1/workspaces', owner.token, payload)).statusCode, 400, JSON.stringify(payload));
    }
  });

  test('GET lists exactly the caller\'s workspaces with their roles', async () => {
    const owner = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const team = await createWorkspace(owner, 'Mine');
    await createWorkspace(stranger, 'Theirs');
    const list = (await call('GET', '/api/v1/workspaces', owner.token)).json().workspaces;
    assert.deepEqual(list.map((w: { id: number; role: string; is_personal: boolean }) => [w.id, w.role, w.is_personal]),
      [[owner.personalWorkspaceId, 'owner', true], [team, 'owner', false]]);
  });

  test('owners add registered users as admin or member; owner role, unknown email and duplicates are refused', async () => {
    const owner = await registerUser(t.app);
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const ws = await createWorkspace(owner);
    const added = await call('POST', `/api/v1/workspaces/${ws}/members`, owner.token, { email: alice.user.email.toUpperCase(), role: 'admin' });
    assert.equal(added.statusCode, 201);
    assert.deepEqual(added.json(), { workspace_id: ws, user_id: alice.user.id, email: alice.user.email, role: 'admin', created_at: added.json().created_at });
    const owners = await addMember(owner, ws, bob, 'owner');
    assert.equal(owners.statusCode, 400);
    assert.equal(owners.json().code, 'owner_role_not_allowed');
    const unknown = await call('POST', `/api/v1/workspaces/${ws}/members`, owner.token, { email: 'nobody@example.test', role: 'member' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'user_not_found');
    const again = await addMember(owner, ws, alice, 'member');
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'member_exists');
    assert.equal((await addMember(owner, ws, bob, 'superuser')).statusCode, 400);
    assert.deepEqual(await membersOf(ws), [{ userId: owner.user.id, role: 'owner' }, { userId: alice.user.id, role: 'admin' }]);
    const listed = (await call('GET', `/api/v1/workspaces/${ws}/members`, alice.token)).json().members;
    assert.deepEqual(listed.map((m: { email: string }) => m.email), [owner.user.email, alice.user.email]);
  });

  test('roles: admins manage members but not owners; members only leave', async () => {
    const owner = await registerUser(t.app);
    const admin = await registerUser(t.app);
    const member = await registerUser(t.app);
    const newcomer = await registerUser(t.app);
    const ws = await createWorkspace(owner);
    await addMember(owner, ws, admin, 'admin');
    await addMember(owner, ws, member, 'member');

    const byMember = await addMember(member, ws, newcomer, 'member');
    assert.equal(byMember.statusCode, 403);
    assert.equal(byMember.json().code, 'permission_denied');
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/members/${admin.user.id}`, member.token)).statusCode, 403);
    assert.equal((await addMember(admin, ws, newcomer, 'member')).statusCode, 201);
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/members/${owner.user.id}`, admin.token)).statusCode, 403);
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/members/${newcomer.user.id}`, admin.token)).statusCode, 204);
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/members/${member.user.id}`, member.token)).statusCode, 204, 'a member may leave');
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/members/${member.user.id}`, owner.token)).statusCode, 404, 'already gone');
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/members/${admin.user.id}`, owner.token)).statusCode, 204);
    assert.deepEqual(await membersOf(ws), [{ userId: owner.user.id, role: 'owner' }]);
  });

  test('the last owner cannot be removed; with two owners, exactly one survives a mutual removal', async () => {
    const owner = await registerUser(t.app);
    const ws = await createWorkspace(owner);
    const last = await call('DELETE', `/api/v1/workspaces/${ws}/members/${owner.user.id}`, owner.token);
    assert.equal(last.statusCode, 409);
    assert.equal(last.json().code, 'workspace_owner_required');
    const personal = await call('DELETE', `/api/v1/workspaces/${owner.personalWorkspaceId}/members/${owner.user.id}`, owner.token);
    assert.equal(personal.statusCode, 409);

    const second = await registerUser(t.app);
    await t.deps.database.db.insertInto('workspace_members')
      .values({ workspace_id: ws, user_id: second.user.id, role: 'owner', created_at: t.clock.now() }).execute();
    const [a, b] = await Promise.all([
      call('DELETE', `/api/v1/workspaces/${ws}/members/${second.user.id}`, owner.token),
      call('DELETE', `/api/v1/workspaces/${ws}/members/${owner.user.id}`, second.token),
    ]);
    assert.deepEqual([a.statusCode, b.statusCode].filter((s) => s === 204).length, 1, `${a.statusCode} ${b.statusCode}`);
    const left = await membersOf(ws);
    assert.equal(left.length, 1);
    assert.equal(left[0]?.role, 'owner');
  });

  test('a non-member gets the same 404 as for a workspace that does not exist, on every workspace route, and nothing changes', async () => {
    const owner = await registerUser(t.app);
    const outsider = await registerUser(t.app);
    const ws = await createWorkspace(owner);
    await createApiKey(t.app, owner.token, ws);
    const keyId = Number((await t.deps.database.db.selectFrom('api_keys').select('id').where('workspace_id', '=', ws).executeTakeFirstOrThrow()).id);
    const routes = (id: number) => [
      ['GET', `/api/v1/workspaces/${id}/members`],
      ['POST', `/api/v1/workspaces/${id}/members`, { email: outsider.user.email, role: 'admin' }],
      ['DELETE', `/api/v1/workspaces/${id}/members/${owner.user.id}`],
      ['POST', `/api/v1/workspaces/${id}/api-keys`, { name: 'mine now' }],
      ['GET', `/api/v1/workspaces/${id}/api-keys`],
      ['DELETE', `/api/v1/workspaces/${id}/api-keys/${keyId}`],
    ] as const;
    const before = [await membersOf(ws), await t.deps.database.db.selectFrom('api_keys').selectAll().execute()];
    const missing = routes(987_654);
    for (const [i, [method, url, payload]] of routes(ws).entries()) {
      const response = await call(method, url, outsider.token, payload);
      assert.equal(response.statusCode, 404, `${method} ${url}`);
      const [, missingUrl, missingPayload] = missing[i]!;
      const none = await call(method, missingUrl, outsider.token, missingPayload);
      assert.equal(response.body, none.body, 'no existence oracle');
    }
    assert.deepEqual([await membersOf(ws), await t.deps.database.db.selectFrom('api_keys').selectAll().execute()], before);
    const list = (await call('GET', '/api/v1/workspaces', outsider.token)).json().workspaces;
    assert.ok(!list.some((w: { id: number }) => w.id === ws));
  });

  test('an API key cannot create workspaces or manage members, and lists only its own workspace', async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const ws = await createWorkspace(owner);
    const key = await createApiKey(t.app, owner.token, ws);
    const created = await call('POST', '/api/v1/workspaces', key, { name: 'Escape' });
    assert.equal(created.statusCode, 403);
    assert.equal(created.json().code, 'permission_denied');
    assert.equal((await addMember({ ...owner, token: key }, ws, other, 'admin')).statusCode, 403);
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/members/${owner.user.id}`, key)).statusCode, 403);
    const list = (await call('GET', '/api/v1/workspaces', key)).json().workspaces;
    assert.deepEqual(list.map((w: { id: number; role: string }) => [w.id, w.role]), [[ws, 'admin']]);
    assert.equal((await call('GET', `/api/v1/workspaces/${ws}/members`, key)).statusCode, 200);
    assert.equal((await call('GET', `/api/v1/workspaces/${owner.personalWorkspaceId}/members`, key)).statusCode, 404);
  });

  test('malformed ids are a 400, not a 500', async () => {
    const owner = await registerUser(t.app);
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      assert.equal((await call('GET', `/api/v1/workspaces/${id}/members`, owner.token)).statusCode, 400, id);
    }
  });
});
