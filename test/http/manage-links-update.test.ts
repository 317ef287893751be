import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setLinkColumns } from '../support/links.js';
import { addMember, createLink, createWorkspace, HOUR, iso, linkRow, visit } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

describe('PATCH /api/urls/{id} and PATCH /api/v1/workspaces/{id}/links/{short_code}', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  const patch = (token: string, id: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/api/urls/${id}`, headers: bearer(token), payload });

  test('a new destination redirects at once, although the old one was cached', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/old' });
    assert.equal((await visit(t.app, link.shortCode)).location, 'https://example.com/old');
    const response = await patch(user.token, link.id, { url: 'https://Example.com/new/?b=1&a=2' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().shortCode, link.shortCode, 'the code people hold stays');
    assert.equal(response.json().normalizedUrl, 'https://example.com/new?a=2&b=1');
    const row = await linkRow(t.deps, link.id);
    assert.equal(row.original_url, 'https://example.com/new/?b=1&a=2');
    assert.equal(row.normalized_url, 'https://example.com/new?a=2&b=1');
    assert.deepEqual(await visit(t.app, link.shortCode), { status: 301, location: 'https://example.com/new/?b=1&a=2', cacheControl: 'public, max-age=300' });
  });

  test('an expiry turns the cached 301 into a 302 with private, no-cache; null turns it back', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/expiring' });
    assert.equal((await visit(t.app, link.shortCode)).status, 301);
    const expiresAt = iso(t.clock.now() + HOUR);
    const response = await patch(user.token, link.id, { expiresAt });
    assert.equal(response.json().expiresAt, expiresAt);
    assert.deepEqual(await visit(t.app, link.shortCode), { status: 302, location: 'https://example.com/expiring', cacheControl: 'private, no-cache' });
    assert.equal((await patch(user.token, link.id, { expiresAt: null })).json().expiresAt, null);
    assert.equal((await linkRow(t.deps, link.id)).expires_at, null);
    assert.equal((await visit(t.app, link.shortCode)).status, 301);
  });

  test('a new expiry revives a link the reaper marked EXPIRED', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/revive', expiresAt: iso(t.clock.now() + HOUR) });
    t.clock.advance(2 * HOUR);
    await setLinkColumns(t.deps, link.id, { status: 'EXPIRED' });
    assert.equal((await visit(t.app, link.shortCode)).status, 410);
    const response = await patch(user.token, link.id, { expiresAt: iso(t.clock.now() + HOUR) });
    assert.equal(response.json().status, 'ACTIVE');
    assert.equal((await visit(t.app, link.shortCode)).status, 302);
  });

  test('refuses a past expiry, a bad URL, an empty body and unknown fields with 400, changing nothing', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/stay' });
    const before = await linkRow(t.deps, link.id);
    for (const payload of [{ expiresAt: iso(t.clock.now() - 1) }, { url: 'ftp://example.com/' }, {}, { code: 'x' }, { expiresAt: 'soon' }]) {
      assert.equal((await patch(user.token, link.id, payload)).statusCode, 400, JSON.stringify(payload));
    }
    assert.deepEqual(await linkRow(t.deps, link.id), before);
  });

  test('a URL the workspace already holds under another link is 409 naming that link\'s code', async () => {
    const user = await registerUser(t.app);
    const taken = await createLink(t.app, user.token, { url: 'https://example.com/taken' });
    const link = await createLink(t.app, user.token, { url: 'https://example.com/mine' });
    const response = await patch(user.token, link.id, { url: 'https://example.com/taken/' });
    assert.equal(response.statusCode, 409);
    assert.equal(response.json().code, 'url_already_shortened');
    assert.equal(response.json().shortCode, taken.shortCode);
    assert.equal((await linkRow(t.deps, link.id)).original_url, 'https://example.com/mine');
  });

  test('workspace admins edit any link; a plain member edits only the links they created', async () => {
    const owner = await registerUser(t.app);
    const admin = await registerUser(t.app);
    const member = await registerUser(t.app);
    const team = await createWorkspace(t.app, owner.token);
    await addMember(t.app, owner.token, team, admin.user.email, 'admin');
    await addMember(t.app, owner.token, team, member.user.email, 'member');
    const ownersLink = await createLink(t.app, owner.token, { url: 'https://example.com/team/owner', workspaceId: team });
    const membersLink = await createLink(t.app, member.token, { url: 'https://example.com/team/member', workspaceId: team });
    assert.equal((await patch(admin.token, ownersLink.id, { url: 'https://example.com/team/by-admin' })).statusCode, 200);
    assert.equal((await patch(member.token, membersLink.id, { url: 'https://example.com/team/by-member' })).statusCode, 200);
    const refused = await patch(member.token, ownersLink.id, { url: 'https://example.com/team/hijack' });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'link_change_not_allowed');
    assert.equal(refused.json().detail, 'Only the link\'s creator or a workspace admin can edit it.');
    assert.equal((await linkRow(t.deps, ownersLink.id)).original_url, 'https://example.com/team/by-admin');
  });

  test('v1 edits by workspace and code in snake_case', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/v1/old' });
    assert.equal((await visit(t.app, link.shortCode)).location, 'https://example.com/v1/old');
    const expires_at = iso(t.clock.now() + HOUR);
    const response = await t.app.inject({
      method: 'PATCH', url: `/api/v1/workspaces/${user.personalWorkspaceId}/links/${link.shortCode}`,
      headers: bearer(user.token), payload: { original_url: 'https://example.com/v1/new', expires_at },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().original_url, 'https://example.com/v1/new');
    assert.equal(response.json().expires_at, expires_at);
    assert.deepEqual(await visit(t.app, link.shortCode), { status: 302, location: 'https://example.com/v1/new', cacheControl: 'private, no-cache' });
  });
});
