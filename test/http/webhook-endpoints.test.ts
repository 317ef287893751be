import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { addMember, createWorkspace } from '../support/owned-links.js';
import { suiteScope } from '../support/teardown.js';
import { bearer, createApiKey, registerUser } from '../support/users.js';

const HOOK = 'http://127.0.0.1:9/hooks';

describe('webhook endpoints (v1)', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', ALLOW_PRIVATE_DESTINATIONS: 'true' }); });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const endpointRows = () => t.deps.database.db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute();

  test('an owner registers an endpoint; its secret (whsec_ and 24+ random bytes) is shown once, then never again', async () => {
    const owner = await registerUser(t.app);
    const ws = owner.personalWorkspaceId;
    const created = await call('POST', `/api/v1/workspaces/${ws}/webhooks`, owner.token, { url: HOOK, events: ['link.created', 'link.deleted', 'link.created'] });
    assert.equal(created.statusCode, 201, created.body);
    const body = created.json();
    assert.match(body.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.ok(Buffer.from(body.secret.slice(6), 'base64').length >= 24);
    assert.deepEqual({ ...body, secret: undefined }, {
      id: body.id, workspace_id: ws, url: HOOK, events: ['link.created', 'link.deleted'], enabled: true, disabled_reason: null,
      created_at: new Date(t.clock.now()).toISOString(), updated_at: new Date(t.clock.now()).toISOString(), secret: undefined,
    });
    assert.equal(created.headers.location, `/api/v1/workspaces/${ws}/webhooks/${body.id}`);
    const listed = (await call('GET', `/api/v1/workspaces/${ws}/webhooks`, owner.token)).json().webhooks;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].secret, undefined);
    const one = await call('GET', `/api/v1/workspaces/${ws}/webhooks/${body.id}`, owner.token);
    assert.equal(one.json().secret, undefined);
    assert.equal(one.json().url, HOOK);
  });

  test('PATCH changes URL, events and enabled; DELETE removes it; a webhook of another workspace is 404', async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const ws = owner.personalWorkspaceId;
    const id = (await call('POST', `/api/v1/workspaces/${ws}/webhooks`, owner.token, { url: HOOK, events: ['link.created'] })).json().id;
    const patched = await call('PATCH', `/api/v1/workspaces/${ws}/webhooks/${id}`, owner.token, { url: 'http://127.0.0.1:10/b', events: ['link.updated', 'link.clicked'], enabled: false });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual([patched.json().url, patched.json().events, patched.json().enabled], ['http://127.0.0.1:10/b', ['link.updated', 'link.clicked'], false]);
    assert.equal((await call('GET', `/api/v1/workspaces/${other.personalWorkspaceId}/webhooks/${id}`, other.token)).statusCode, 404);
    assert.equal((await call('DELETE', `/api/v1/workspaces/${other.personalWorkspaceId}/webhooks/${id}`, other.token)).statusCode, 404);
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/webhooks/${id}`, owner.token)).statusCode, 204);
    assert.equal((await call('GET', `/api/v1/workspaces/${ws}/webhooks/${id}`, owner.token)).statusCode, 404);
    assert.equal((await call('DELETE', `/api/v1/workspaces/${ws}/webhooks/${id}`, owner.token)).statusCode, 404);
  });

  test('bad URLs and events get a 400 problem and store nothing', async () => {
    const owner = await registerUser(t.app);
    const url = `/api/v1/workspaces/${owner.personalWorkspaceId}/webhooks`;
    const before = await endpointRows();
    const cases: Array<[object, string]> = [
      [{ url: 'ftp://127.0.0.1/x', events: ['link.created'] }, 'webhook_url_invalid'],
      [{ url: 'not a url', events: ['link.created'] }, 'webhook_url_invalid'],
      [{ url: 'http://user:pw@127.0.0.1/x', events: ['link.created'] }, 'webhook_url_invalid'],
      [{ url: HOOK, events: [] }, 'validation_failed'],
      [{ url: HOOK, events: ['link.exploded'] }, 'validation_failed'],
      [{ url: HOOK }, 'validation_failed'],
      [{ url: HOOK, events: ['link.created'], secret: 'mine' }, 'validation_failed'],
    ];
    for (const [payload, code] of cases) {
      const response = await call('POST', url, owner.token, payload);
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.equal(response.json().code, code, JSON.stringify(payload));
    }
    assert.deepEqual(await endpointRows(), before);
  });

  test('members who are not admins get 403, strangers 404, API keys may not register one; nothing changes', async () => {
    const owner = await registerUser(t.app);
    const admin = await registerUser(t.app);
    const member = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const ws = await createWorkspace(t.app, owner.token);
    await addMember(t.app, owner.token, ws, admin.user.email, 'admin');
    await addMember(t.app, owner.token, ws, member.user.email, 'member');
    const id = (await call('POST', `/api/v1/workspaces/${ws}/webhooks`, admin.token, { url: HOOK, events: ['link.created'] })).json().id;
    assert.ok(id > 0);
    const key = await createApiKey(t.app, owner.token, ws);
    const before = await endpointRows();
    const routes: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, object?]> = [
      ['POST', `/api/v1/workspaces/${ws}/webhooks`, { url: HOOK, events: ['link.created'] }],
      ['GET', `/api/v1/workspaces/${ws}/webhooks`],
      ['GET', `/api/v1/workspaces/${ws}/webhooks/${id}`],
      ['PATCH', `/api/v1/workspaces/${ws}/webhooks/${id}`, { enabled: false }],
      ['DELETE', `/api/v1/workspaces/${ws}/webhooks/${id}`],
      ['GET', `/api/v1/workspaces/${ws}/webhooks/${id}/deliveries`],
      ['POST', `/api/v1/workspaces/${ws}/webhooks/${id}/deliveries/1/redeliver`],
    ];
    for (const [method, url, payload] of routes) {
      assert.equal((await call(method, url, member.token, payload)).statusCode, 403, `member ${method} ${url}`);
      assert.equal((await call(method, url, stranger.token, payload)).statusCode, 404, `stranger ${method} ${url}`);
    }
    assert.equal((await call('POST', `/api/v1/workspaces/${ws}/webhooks`, key, { url: HOOK, events: ['link.created'] })).statusCode, 403);
    assert.equal((await call('PATCH', `/api/v1/workspaces/${ws}/webhooks/${id}`, key, { url: 'http://127.0.0.1:11/' })).statusCode, 403);
    assert.equal((await call('GET', `/api/v1/workspaces/${ws}/webhooks`, key)).statusCode, 200);
    assert.deepEqual(await endpointRows(), before);
  });
});

describe('webhook URLs without ALLOW_PRIVATE_DESTINATIONS', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  test('a URL to a loopback, private or link-local address is refused with 400 and nothing is stored', async () => {
    const owner = await registerUser(t.app);
    const url = `/api/v1/workspaces/${owner.personalWorkspaceId}/webhooks`;
    for (const target of ['http://127.0.0.1:8080/x', 'http://[::1]/x', 'http://10.0.0.5/x', 'http://169.254.169.254/latest', 'http://localhost/x']) {
      const response = await t.app.inject({ method: 'POST', url, headers: bearer(owner.token), payload: { url: target, events: ['link.created'] } });
      assert.equal(response.statusCode, 400, target);
      assert.equal(response.json().code, 'webhook_url_refused', target);
    }
    assert.deepEqual(await t.deps.database.db.selectFrom('webhook_endpoints').selectAll().execute(), []);
  });
});
