import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deterministicCode } from '../../src/core/short-code.js';
import { countLinks, insertLink, setLinkColumns } from '../support/links.js';
import { createLink, createWorkspace, HOUR, iso, linkRow, postLink, visit } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

describe('POST /api/urls: permanent links with deterministic codes', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  test('creates a PERMANENT link in the personal workspace whose code follows docs/specification.md', async () => {
    const user = await registerUser(t.app);
    const response = await postLink(t.app, user.token, { url: 'HTTP://Example.COM:80/path/' });
    assert.equal(response.statusCode, 201);
    const link = response.json();
    assert.equal(link.shortCode, deterministicCode('http://example.com/path', user.personalWorkspaceId, 0));
    assert.equal(link.normalizedUrl, 'http://example.com/path');
    assert.equal(link.linkType, 'PERMANENT');
    assert.equal(link.workspaceId, user.personalWorkspaceId);
    assert.equal(link.expiresAt, null);
    assert.equal(response.headers.location, `/api/urls/${link.id}`);
    const row = await linkRow(t.deps, link.id);
    assert.equal(Number(row.owner_id), user.user.id);
    assert.equal(row.claim_token_hash, null);
  });

  test('a create is one write: one INSERT, one request to the SQLite writer, no transaction around it', async () => {
    const user = await registerUser(t.app);
    const writer = t.deps.database.embedded?.writer;
    for (const create of [
      () => postLink(t.app, user.token, { url: 'https://example.com/one-write' }),
      () => t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/one-write' } }),
    ]) {
      const sentBefore = writer?.sent;
      t.statements.length = 0;
      assert.equal((await create()).statusCode, 201);
      const writes = t.statements.filter((sql) => !/^(select |begin$|commit$)/i.test(sql));
      assert.equal(writes.length, 1, writes.join('\n'));
      assert.match(writes[0]!, /^insert into "links"/i);
      if (writer) assert.equal(writer.sent - sentBefore!, 1, 'one writer round trip');
    }
  });

  test('salts the code with the workspace: the same URL in another workspace gets another code', async () => {
    const user = await registerUser(t.app);
    const team = await createWorkspace(t.app, user.token);
    const personal = await createLink(t.app, user.token, { url: 'https://example.com/salted' });
    const shared = await postLink(t.app, user.token, { url: 'https://example.com/salted', workspaceId: team });
    assert.equal(shared.statusCode, 201);
    assert.equal(shared.json().workspaceId, team);
    assert.equal(shared.json().shortCode, deterministicCode('https://example.com/salted', team, 0));
    assert.notEqual(shared.json().shortCode, personal.shortCode);
  });

  test('answers the existing link with 200, unchanged, for any spelling of the same canonical URL', async () => {
    const user = await registerUser(t.app);
    const first = await postLink(t.app, user.token, { url: 'https://example.com/same?b=2&a=1' });
    assert.equal(first.statusCode, 201);
    const before = await countLinks(t.deps);
    const again = await postLink(t.app, user.token, { url: 'HTTPS://EXAMPLE.com:443/same/?a=1&b=2#frag' });
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json(), first.json(), 'the original URL and everything else stay as first created');
    assert.equal(await countLinks(t.deps), before);
  });

  test('restores a soft-deleted link when its URL is created again, and it redirects at once', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/comeback' });
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/urls/${link.id}`, headers: bearer(user.token) })).statusCode, 204);
    assert.equal((await visit(t.app, link.shortCode)).status, 410, 'the deleted link is now cached as a tombstone');
    const again = await postLink(t.app, user.token, { url: 'https://example.com/comeback' });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().id, link.id);
    assert.equal(again.json().status, 'ACTIVE');
    assert.equal(again.json().deletedAt, null);
    const row = await linkRow(t.deps, link.id);
    assert.equal(row.status, 'ACTIVE');
    assert.equal(row.deleted_at, null);
    assert.equal((await visit(t.app, link.shortCode)).status, 301);
  });

  test('falls through to attempt 1 when another link holds the attempt-0 code', async () => {
    const user = await registerUser(t.app);
    const url = 'https://example.com/collides';
    const ws = user.personalWorkspaceId;
    await insertLink(t.deps, { code: deterministicCode(url, ws, 0), originalUrl: 'https://elsewhere.example/' });
    const response = await postLink(t.app, user.token, { url });
    assert.equal(response.statusCode, 201);
    assert.equal(response.json().shortCode, deterministicCode(url, ws, 1));
    const again = await postLink(t.app, user.token, { url });
    assert.equal(again.statusCode, 200, 'the attempt-1 holder has the same workspace and URL: the same link');
    assert.equal(again.json().id, response.json().id);
  });

  test('answers 500 code_generation_failed once all ten candidate codes are taken by other links', async () => {
    const user = await registerUser(t.app);
    const url = 'https://example.com/exhausted';
    for (let attempt = 0; attempt < 10; attempt++) {
      await insertLink(t.deps, { code: deterministicCode(url, user.personalWorkspaceId, attempt), originalUrl: `https://other.example/${attempt}` });
    }
    const before = await countLinks(t.deps);
    const response = await postLink(t.app, user.token, { url });
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().code, 'code_generation_failed');
    assert.equal(await countLinks(t.deps), before);
  });

  test('creates in a given workspace only for its members; others get 404 and no row', async () => {
    const owner = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const team = await createWorkspace(t.app, owner.token);
    const before = await countLinks(t.deps);
    const response = await postLink(t.app, stranger.token, { url: 'https://example.com/intrude', workspaceId: team });
    assert.equal(response.statusCode, 404);
    assert.equal(await countLinks(t.deps), before);
  });

  test('with an expiry in the future: stored, and the redirect is a 302 that clients must not cache', async () => {
    const user = await registerUser(t.app);
    const expiresAt = iso(t.clock.now() + 2 * HOUR);
    const link = (await postLink(t.app, user.token, { url: 'https://example.com/soon', expiresAt })).json();
    assert.equal(link.expiresAt, expiresAt);
    assert.equal(Number((await linkRow(t.deps, link.id)).expires_at), Date.parse(expiresAt));
    assert.deepEqual(await visit(t.app, link.shortCode), { status: 302, location: 'https://example.com/soon', cacheControl: 'private, no-cache' });
    t.clock.advance(2 * HOUR);
    assert.equal((await visit(t.app, link.shortCode)).status, 410);
  });

  test('without an expiry the redirect is a cacheable 301', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/forever' });
    assert.deepEqual(await visit(t.app, link.shortCode), { status: 301, location: 'https://example.com/forever', cacheControl: 'public, max-age=300' });
  });

  test('refuses an expiry that is now or past, or not a date-time, with 400', async () => {
    const user = await registerUser(t.app);
    for (const expiresAt of [iso(t.clock.now()), iso(t.clock.now() - 1000), 'tomorrow', '2026-13-01T00:00:00Z']) {
      const response = await postLink(t.app, user.token, { url: 'https://example.com/past', expiresAt });
      assert.equal(response.statusCode, 400, expiresAt);
    }
    assert.equal((await postLink(t.app, user.token, { url: 'https://example.com/past', expiresAt: iso(t.clock.now()) })).json().code, 'expires_at_not_future');
  });

  test('refuses invalid destinations and unknown fields with 400, and anonymous callers with 401', async () => {
    const user = await registerUser(t.app);
    const before = await countLinks(t.deps);
    assert.equal((await postLink(t.app, user.token, { url: 'javascript:alert(1)' })).json().code, 'url_scheme_not_allowed');
    assert.equal((await postLink(t.app, user.token, { url: 'http://127.0.0.1/' })).statusCode, 400);
    assert.equal((await postLink(t.app, user.token, { url: 'https://example.com/', owner: 1 })).statusCode, 400);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/urls', payload: { url: 'https://example.com/' } });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(await countLinks(t.deps), before);
  });

  test('an expired (reaper-marked) link is answered as it is when created again', async () => {
    const user = await registerUser(t.app);
    const link = (await postLink(t.app, user.token, { url: 'https://example.com/lapsed', expiresAt: iso(t.clock.now() + HOUR) })).json();
    t.clock.advance(2 * HOUR);
    await setLinkColumns(t.deps, link.id, { status: 'EXPIRED' });
    const again = await postLink(t.app, user.token, { url: 'https://example.com/lapsed' });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().status, 'EXPIRED');
  });
});
