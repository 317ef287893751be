import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { deterministicCode } from '../../src/core/short-code.js';
import { countLinks, setLinkColumns } from '../support/links.js';
import { allLinkRows, createAnonymousLink, createLink, HOUR, linkRow, visit } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

type Entry = { shortCode: string; claimToken: string; url: string; expiresAt?: unknown };
type Result = { shortCode: string; outcome: string; reason?: string; link?: { id: number; shortCode: string; linkType: string; workspaceId: number } };

describe('POST /api/urls/sync: claiming anonymous links (RELIABILITY rule 9, S-80..S-85)', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  async function sync(user: RegisteredUser, links: Entry[]): Promise<Result[]> {
    const response = await t.app.inject({ method: 'POST', url: '/api/urls/sync', headers: bearer(user.token), payload: { links } });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().results;
  }

  test('a valid code and token claim the link: owned, permanent, same code, and the token is spent', async () => {
    const user = await registerUser(t.app);
    const anon = await createAnonymousLink(t.app, 'https://example.com/claim-me');
    assert.equal((await visit(t.app, anon.shortCode)).status, 302, 'cached as a temporary link');
    const [result] = await sync(user, [{ shortCode: anon.shortCode, claimToken: anon.claimToken, url: 'https://example.com/claim-me' }]);
    assert.equal(result!.outcome, 'claimed');
    assert.equal(result!.link!.shortCode, anon.shortCode);
    assert.equal(result!.link!.linkType, 'PERMANENT');
    const row = await linkRow(t.deps, anon.id);
    assert.deepEqual(
      [Number(row.owner_id), Number(row.workspace_id), row.link_type, row.expires_at, row.status, row.claim_token_hash],
      [user.user.id, user.personalWorkspaceId, 'PERMANENT', null, 'ACTIVE', null],
    );
    assert.deepEqual(await visit(t.app, anon.shortCode), { status: 301, location: 'https://example.com/claim-me', cacheControl: 'public, max-age=300' });
  });

  test('replaying the same entry answers existing with the claimed link, and changes nothing', async () => {
    const user = await registerUser(t.app);
    const anon = await createAnonymousLink(t.app, 'https://example.com/replay');
    const entry = { shortCode: anon.shortCode, claimToken: anon.claimToken, url: 'https://example.com/replay' };
    await sync(user, [entry]);
    const rowsBefore = await allLinkRows(t.deps);
    const [again] = await sync(user, [entry]);
    assert.equal(again!.outcome, 'existing');
    assert.equal(again!.link!.id, anon.id);
    assert.deepEqual(await allLinkRows(t.deps), rowsBefore);
  });

  test('a spent token claims nothing for another user: they get their own link for the URL', async () => {
    const first = await registerUser(t.app);
    const second = await registerUser(t.app);
    const anon = await createAnonymousLink(t.app, 'https://example.com/spent');
    const entry = { shortCode: anon.shortCode, claimToken: anon.claimToken, url: 'https://example.com/spent' };
    await sync(first, [entry]);
    const [result] = await sync(second, [entry]);
    assert.equal(result!.outcome, 'created');
    assert.notEqual(result!.link!.id, anon.id);
    assert.equal(result!.link!.shortCode, deterministicCode('https://example.com/spent', second.personalWorkspaceId, 0));
    assert.equal(Number((await linkRow(t.deps, anon.id)).owner_id), first.user.id);
  });

  test('a wrong token, a token of another link and an unknown code all answer alike and claim nothing', async () => {
    const user = await registerUser(t.app);
    const a = await createAnonymousLink(t.app, 'https://example.com/token-a');
    const b = await createAnonymousLink(t.app, 'https://example.com/token-b');
    const bBefore = await linkRow(t.deps, b.id);
    const results = await sync(user, [
      { shortCode: b.shortCode, claimToken: 'not-the-token', url: 'https://example.com/wrong' },
      { shortCode: b.shortCode, claimToken: a.claimToken, url: 'https://example.com/foreign' },
      { shortCode: 'NoSuch1', claimToken: a.claimToken, url: 'https://example.com/unknown' },
    ]);
    assert.deepEqual(results.map((r) => [r.shortCode, r.outcome]), [[b.shortCode, 'created'], [b.shortCode, 'created'], ['NoSuch1', 'created']]);
    assert.deepEqual(results.map((r) => Object.keys(r).sort()), results.map(() => ['link', 'outcome', 'shortCode']));
    assert.ok(results.every((r) => r.link!.workspaceId === user.personalWorkspaceId && r.link!.linkType === 'PERMANENT'));
    assert.deepEqual(await linkRow(t.deps, b.id), bBefore);
    assert.equal((await linkRow(t.deps, a.id)).link_type, 'TEMPORARY');
  });

  test('an expired link not yet purged can still be claimed, and redirects again', async () => {
    const user = await registerUser(t.app);
    const lapsed = await createAnonymousLink(t.app, 'https://example.com/lapsed');
    const marked = await createAnonymousLink(t.app, 'https://example.com/marked');
    t.clock.advance(9 * HOUR);
    await setLinkColumns(t.deps, marked.id, { status: 'EXPIRED' });
    assert.equal((await visit(t.app, lapsed.shortCode)).status, 410);
    const results = await sync(user, [
      { shortCode: lapsed.shortCode, claimToken: lapsed.claimToken, url: 'https://example.com/lapsed' },
      { shortCode: marked.shortCode, claimToken: marked.claimToken, url: 'https://example.com/marked' },
    ]);
    assert.deepEqual(results.map((r) => r.outcome), ['claimed', 'claimed']);
    assert.equal((await linkRow(t.deps, marked.id)).status, 'ACTIVE');
    assert.equal((await visit(t.app, lapsed.shortCode)).status, 301);
  });

  test('when the user already owns the URL, the answer is existing with their link and the anonymous one is left alone', async () => {
    const user = await registerUser(t.app);
    const owned = await createLink(t.app, user.token, { url: 'https://example.com/mine-already' });
    const anon = await createAnonymousLink(t.app, 'https://example.com/mine-already/');
    const anonBefore = await linkRow(t.deps, anon.id);
    const [result] = await sync(user, [{ shortCode: anon.shortCode, claimToken: anon.claimToken, url: 'https://example.com/mine-already' }]);
    assert.equal(result!.outcome, 'existing');
    assert.equal(result!.link!.id, owned.id);
    assert.deepEqual(await linkRow(t.deps, anon.id), anonBefore);
  });

  test('entries without a claimable link create permanent links; invalid URLs are rejected with a reason; order is kept', async () => {
    const user = await registerUser(t.app);
    const before = await countLinks(t.deps);
    const results = await sync(user, [
      { shortCode: 'gone111', claimToken: 'x', url: 'https://example.com/fresh' },
      { shortCode: 'gone222', claimToken: 'x', url: 'javascript:alert(1)' },
      { shortCode: 'gone333', claimToken: 'x', url: 'https://example.com/fresh/' },
    ]);
    assert.deepEqual(results.map((r) => [r.shortCode, r.outcome, r.reason]), [
      ['gone111', 'created', undefined], ['gone222', 'rejected', 'url_scheme_not_allowed'], ['gone333', 'existing', undefined],
    ]);
    assert.equal(results[1]!.link, undefined);
    assert.equal(await countLinks(t.deps), before + 1);
  });

  test('the stored claim secret is only a SHA-256 hash, and it is cleared by the claim (S-85)', async () => {
    const user = await registerUser(t.app);
    const anon = await createAnonymousLink(t.app, 'https://example.com/hash-only');
    const row = await linkRow(t.deps, anon.id);
    assert.equal(row.claim_token_hash, createHash('sha256').update(anon.claimToken).digest('hex'));
    assert.ok(!JSON.stringify(await allLinkRows(t.deps)).includes(anon.claimToken));
    await sync(user, [{ shortCode: anon.shortCode, claimToken: anon.claimToken, url: 'https://example.com/hash-only' }]);
    assert.equal((await linkRow(t.deps, anon.id)).claim_token_hash, null);
  });

  test('entries exactly as the web UI stores them, with expiresAt, are claimed (docs/specification.md)', async () => {
    const user = await registerUser(t.app);
    const stored = [];
    for (const expiresAt of ['iso', 'epoch', null, 'lapsed'] as const) {
      const url = `https://example.com/stored/${String(expiresAt)}`;
      const response = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url } });
      assert.equal(response.statusCode, 201, response.body);
      const link = response.json() as { shortCode: string; claimToken: string; originalUrl: string; expiresAt: string };
      const value = expiresAt === 'iso' ? link.expiresAt
        : expiresAt === 'epoch' ? Date.parse(link.expiresAt)
          : expiresAt === 'lapsed' ? new Date(t.clock.now() - HOUR).toISOString() : null;
      stored.push({ shortCode: link.shortCode, claimToken: link.claimToken, url: link.originalUrl, expiresAt: value });
    }
    const results = await sync(user, stored);
    assert.deepEqual(results.map((r) => [r.shortCode, r.outcome]), stored.map((entry) => [entry.shortCode, 'claimed']));
    for (const result of results) assert.equal(result.link!.linkType, 'PERMANENT');
  });

  test('a stored expiresAt is informational: the server\'s own row decides, whatever the client says', async () => {
    const user = await registerUser(t.app);
    const lapsed = await createAnonymousLink(t.app, 'https://example.com/client-says-live');
    t.clock.advance(9 * HOUR);
    const results = await sync(user, [{
      shortCode: lapsed.shortCode, claimToken: lapsed.claimToken, url: 'https://example.com/client-says-live',
      expiresAt: new Date(t.clock.now() + HOUR).toISOString(),
    }]);
    assert.equal(results[0]!.outcome, 'claimed', 'an expired link not yet purged is claimable whatever the entry says');
    const row = await linkRow(t.deps, lapsed.id);
    assert.equal(row.expires_at, null, 'the claimed link is permanent, not given the client\'s expiry');
  });

  test('an expiresAt of another type, or an unknown field, is refused and claims nothing', async () => {
    const user = await registerUser(t.app);
    const anon = await createAnonymousLink(t.app, 'https://example.com/bad-entry');
    const before = await linkRow(t.deps, anon.id);
    const entry = { shortCode: anon.shortCode, claimToken: anon.claimToken, url: 'https://example.com/bad-entry' };
    for (const bad of [{ ...entry, expiresAt: true }, { ...entry, expiresAt: { at: 1 } }, { ...entry, expiresAt: 'x'.repeat(65) }, { ...entry, expired: false }]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/urls/sync', headers: bearer(user.token), payload: { links: [bad] } });
      assert.equal(response.statusCode, 400, JSON.stringify(bad));
      assert.equal(response.json().code, 'validation_failed');
    }
    assert.deepEqual(await linkRow(t.deps, anon.id), before);
  });

  test('the OpenAPI document describes the stored entry shape and the entry limit', async () => {
    const document = (await t.app.inject({ url: '/openapi.json' })).json();
    const body = document.paths['/api/urls/sync'].post.requestBody.content['application/json'].schema;
    assert.equal(body.properties.links.maxItems, 100);
    assert.match(body.properties.links.description, /At most 100 entries/);
    assert.deepEqual(Object.keys(body.properties.links.items.properties).sort(), ['claimToken', 'expiresAt', 'shortCode', 'url']);
  });

  test('refuses more than 100 entries, malformed entries and anonymous callers', async () => {
    const user = await registerUser(t.app);
    const entry = { shortCode: 'abc', claimToken: 'x', url: 'https://example.com/' };
    const post = (payload: unknown, headers = bearer(user.token)) =>
      t.app.inject({ method: 'POST', url: '/api/urls/sync', headers, payload: payload as object });
    assert.equal((await post({ links: Array(101).fill(entry) })).statusCode, 400);
    assert.equal((await post({ links: [{ shortCode: 'abc', url: 'https://example.com/' }] })).statusCode, 400);
    assert.equal((await post({ links: [entry] }, {} as ReturnType<typeof bearer>)).statusCode, 401);
    assert.equal((await post({ links: Array(100).fill(entry) })).statusCode, 200);
  });
});
