import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setLinkColumns } from '../support/links.js';
import { addMember, createLink, createWorkspace, HOUR, iso } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

describe('GET /api/urls and GET /api/v1/workspaces/{id}/links', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  const list = async (user: RegisteredUser, query = '') => {
    const response = await t.app.inject({ method: 'GET', url: `/api/urls${query}`, headers: bearer(user.token) });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { items: Array<{ id: number; shortCode: string; status: string; workspaceId: number }>; nextCursor: string | null };
  };

  test('lists the links of every workspace the caller belongs to, newest first, and nobody else\'s', async () => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const team = await createWorkspace(t.app, bob.token);
    await addMember(t.app, bob.token, team, alice.user.email, 'member');
    const own = await createLink(t.app, alice.token, { url: 'https://example.com/list/own' });
    const teamLink = await createLink(t.app, bob.token, { url: 'https://example.com/list/team', workspaceId: team });
    const bobsPrivate = await createLink(t.app, bob.token, { url: 'https://example.com/list/bob' });
    const page = await list(alice);
    assert.deepEqual(page.items.map((link) => link.id), [teamLink.id, own.id]);
    assert.equal(page.nextCursor, null);
    assert.ok(!(await list(alice, '?q=list%2Fbob')).items.some((link) => link.id === bobsPrivate.id));
  });

  test('pages with an opaque cursor until nextCursor is null, without repeats or gaps', async () => {
    const user = await registerUser(t.app);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createLink(t.app, user.token, { url: `https://example.com/page/${i}` })).id);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(user, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((link) => link.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null);
    assert.deepEqual(seen, ids.reverse());
    assert.equal(pages, 3);
  });

  test('defaults to 20 per page and refuses limits outside 1..100 and forged cursors with 400', async () => {
    const user = await registerUser(t.app);
    for (let i = 0; i < 21; i++) await createLink(t.app, user.token, { url: `https://example.com/many/${i}` });
    const page = await list(user);
    assert.equal(page.items.length, 20);
    assert.notEqual(page.nextCursor, null);
    for (const query of ['?limit=0', '?limit=101', '?cursor=not-a-cursor', `?cursor=${Buffer.from('-1').toString('base64url')}`, '?status=GONE']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/urls${query}`, headers: bearer(user.token) });
      assert.equal(response.statusCode, 400, query);
    }
  });

  test('q matches part of the code or of the original URL, case-insensitively, with % and _ taken literally', async () => {
    const user = await registerUser(t.app);
    const byUrl = await createLink(t.app, user.token, { url: 'https://shop.example/Sale_100%25' });
    const byCode = await createLink(t.app, user.token, { url: 'https://example.com/other', customCode: 'Needle-code' });
    await createLink(t.app, user.token, { url: 'https://example.com/Sale-100' });
    assert.deepEqual((await list(user, '?q=SHOP.EXAMPLE')).items.map((l) => l.id), [byUrl.id]);
    assert.deepEqual((await list(user, '?q=needle')).items.map((l) => l.id), [byCode.id]);
    assert.deepEqual((await list(user, `?q=${encodeURIComponent('sale_100%')}`)).items.map((l) => l.id), [byUrl.id]);
  });

  test('status filters by the effective status: a link past its expiry is EXPIRED before the reaper marks it', async () => {
    const user = await registerUser(t.app);
    const live = await createLink(t.app, user.token, { url: 'https://example.com/s/live' });
    const lapsing = await createLink(t.app, user.token, { url: 'https://example.com/s/lapsing', expiresAt: iso(t.clock.now() + HOUR) });
    const marked = await createLink(t.app, user.token, { url: 'https://example.com/s/marked', expiresAt: iso(t.clock.now() + HOUR) });
    const deleted = await createLink(t.app, user.token, { url: 'https://example.com/s/deleted' });
    await t.app.inject({ method: 'DELETE', url: `/api/urls/${deleted.id}`, headers: bearer(user.token) });
    const later = await createLink(t.app, user.token, { url: 'https://example.com/s/later', expiresAt: iso(t.clock.now() + 5 * HOUR) });
    t.clock.advance(2 * HOUR);
    await setLinkColumns(t.deps, marked.id, { status: 'EXPIRED' });
    const ids = async (status: string) => (await list(user, `?status=${status}`)).items.map((l) => l.id);
    assert.deepEqual(await ids('ACTIVE'), [later.id, live.id]);
    assert.deepEqual(await ids('EXPIRED'), [marked.id, lapsing.id]);
    assert.deepEqual(await ids('DELETED'), [deleted.id]);
    assert.equal((await list(user, '?status=EXPIRED')).items[1]!.status, 'EXPIRED');
  });

  test('v1 lists one workspace in snake_case with next_cursor, for its members and its own API key', async () => {
    const user = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const team = await createWorkspace(t.app, user.token);
    const key = await createApiKey(t.app, user.token, team);
    const otherKey = await createApiKey(t.app, user.token, user.personalWorkspaceId);
    const a = await createLink(t.app, user.token, { url: 'https://example.com/v1/a', workspaceId: team });
    const b = await createLink(t.app, user.token, { url: 'https://example.com/v1/b', workspaceId: team });
    await createLink(t.app, user.token, { url: 'https://example.com/v1/personal' });
    const url = `/api/v1/workspaces/${team}/links?limit=1`;
    const first = await t.app.inject({ method: 'GET', url, headers: bearer(key) });
    assert.equal(first.statusCode, 200);
    assert.deepEqual(first.json().items.map((l: { short_code: string }) => l.short_code), [b.shortCode]);
    const second = await t.app.inject({ method: 'GET', url: `${url}&cursor=${first.json().next_cursor}`, headers: bearer(user.token) });
    assert.deepEqual(second.json().items.map((l: { short_code: string }) => l.short_code), [a.shortCode]);
    assert.equal(second.json().next_cursor, null);
    assert.equal((await t.app.inject({ method: 'GET', url, headers: bearer(stranger.token) })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url, headers: bearer(otherKey) })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 401);
  });
});
