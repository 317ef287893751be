import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink, createWorkspace, HOUR, iso, linkRow, visit } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

describe('a link\'s own redirect status (redirectStatus, redirect_status)', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  const patch = (token: string, id: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/api/urls/${id}`, headers: bearer(token), payload });

  test('each status is answered as chosen, permanent ones cached publicly, temporary ones not', async () => {
    const user = await registerUser(t.app);
    const expected: Record<number, string> = { 301: 'public, max-age=300', 308: 'public, max-age=300', 302: 'private, no-cache', 307: 'private, no-cache' };
    for (const [status, cacheControl] of Object.entries(expected)) {
      const link = await createLink(t.app, user.token, { url: `https://example.com/status/${status}`, redirectStatus: Number(status) });
      assert.equal(link.redirectStatus, Number(status));
      assert.equal((await linkRow(t.deps, link.id)).redirect_status, Number(status));
      assert.deepEqual(await visit(t.app, link.shortCode), { status: Number(status), location: `https://example.com/status/${status}`, cacheControl });
    }
    const plain = await createLink(t.app, user.token, { url: 'https://example.com/status/plain' });
    assert.equal(plain.redirectStatus, null, 'without one, the instance\'s rule');
    assert.equal((await visit(t.app, plain.shortCode)).status, 301);
  });

  test('while a link expires, 301 answers as 302 and 308 as 307; 307 stays', async () => {
    const user = await registerUser(t.app);
    const expiresAt = iso(t.clock.now() + HOUR);
    for (const [own, answered] of [[301, 302], [308, 307], [307, 307], [302, 302]]) {
      const link = await createLink(t.app, user.token, { url: `https://example.com/expiring/${own}`, redirectStatus: own, expiresAt });
      assert.equal(link.redirectStatus, own, 'the link keeps the status it was given');
      assert.deepEqual(await visit(t.app, link.shortCode), { status: answered, location: `https://example.com/expiring/${own}`, cacheControl: 'private, no-cache' });
    }
  });

  test('PATCH sets, changes and clears it, and the next redirect (cached before) answers the new one', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/edit-status' });
    assert.equal((await visit(t.app, link.shortCode)).status, 301);
    assert.equal((await patch(user.token, link.id, { redirectStatus: 307 })).json().redirectStatus, 307);
    assert.equal((await visit(t.app, link.shortCode)).status, 307);
    assert.equal((await patch(user.token, link.id, { redirectStatus: 308 })).json().redirectStatus, 308);
    assert.equal((await visit(t.app, link.shortCode)).status, 308);
    assert.equal((await patch(user.token, link.id, { redirectStatus: null })).json().redirectStatus, null);
    assert.equal((await linkRow(t.deps, link.id)).redirect_status, null);
    assert.equal((await visit(t.app, link.shortCode)).status, 301);
  });

  test('the workspace API v1 takes and answers redirect_status', async () => {
    const user = await registerUser(t.app);
    const teamId = await createWorkspace(t.app, user.token);
    const created = await t.app.inject({
      method: 'POST', url: `/api/v1/workspaces/${teamId}/links`, headers: bearer(user.token),
      payload: { original_url: 'https://example.com/v1-status', redirect_status: 302 },
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json().redirect_status, 302);
    const code = created.json().short_code as string;
    assert.equal((await visit(t.app, code)).status, 302);
    const changed = await t.app.inject({
      method: 'PATCH', url: `/api/v1/workspaces/${teamId}/links/${code}`, headers: bearer(user.token), payload: { redirect_status: 308 },
    });
    assert.equal(changed.json().redirect_status, 308);
    assert.equal((await visit(t.app, code)).status, 308);
  });

  test('any other value is a 400 naming the field, and nothing is stored or changed', async () => {
    const user = await registerUser(t.app);
    for (const redirectStatus of [300, 303, 200, '301', 301.5, 'permanent']) {
      const response = await t.app.inject({ method: 'POST', url: '/api/urls', headers: bearer(user.token), payload: { url: 'https://example.com/refused', redirectStatus } });
      assert.equal(response.statusCode, 400, JSON.stringify(redirectStatus));
      assert.match(response.body, /redirectStatus/);
    }
    const listed = await t.app.inject({ method: 'GET', url: '/api/urls', headers: bearer(user.token) });
    assert.equal(listed.json().total, 0, 'no link was created');
    const link = await createLink(t.app, user.token, { url: 'https://example.com/kept', redirectStatus: 307 });
    const before = await linkRow(t.deps, link.id);
    const refused = await patch(user.token, link.id, { redirectStatus: 303 });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /redirectStatus/);
    assert.deepEqual(await linkRow(t.deps, link.id), before);
  });
});
