import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink, createWorkspace, HOUR, iso, linkRow } from '../support/owned-links.js';
import { assertGatePageHeaders, assertNoLeak, cookieOf, flushedRedirectCount, open, submit } from '../support/link-gates.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';
import { CountingHashing } from '../support/counting-hashing.js';

describe('links that ask their visitor to confirm (confirmBeforeRedirect)', () => {
  let t: TestApp;
  let user: RegisteredUser;
  const hashing = new CountingHashing();
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }, { passwordHashing: hashing });
    user = await registerUser(t.app);
  });

  let counter = 0;
  const confirming = async (extra: Record<string, unknown> = {}) => {
    counter += 1;
    const url = `https://example.com/once/${counter}`;
    return { url, link: await createLink(t.app, user.token, { url, confirmBeforeRedirect: true, ...extra }) };
  };
  const patch = (id: number, payload: Record<string, unknown>) => t.app.inject({ method: 'PATCH', url: `/api/urls/${id}`, headers: bearer(user.token), payload });

  test('GET and HEAD get the one-button page (200, strict headers, no destination) and count no visit', async () => {
    const { url, link } = await confirming();
    assert.equal(link.confirmBeforeRedirect, true);
    assert.deepEqual(JSON.parse((await linkRow(t.deps, link.id)).options!), { confirmBeforeRedirect: true });
    const page = await open(t.app, link.shortCode);
    assert.equal(page.statusCode, 200);
    assertGatePageHeaders(page);
    assertNoLeak(page, url);
    assert.match(page.body, new RegExp(`<form method="post" action="/${link.shortCode}"><input type="hidden" name="confirm" value="1"><button type="submit">`));
    const head = await open(t.app, link.shortCode, {}, 'HEAD');
    assert.equal(head.statusCode, 200);
    assertNoLeak(head, url);
    const json = await t.app.inject({ method: 'GET', url: `/${link.shortCode}` });
    assert.equal(json.statusCode, 403);
    assert.equal(json.json().reason, 'confirmation_required');
    assertNoLeak(json, url);
    assert.equal(await flushedRedirectCount(t.deps, link.id), 0);
  });

  test('the page\'s POST redirects with 303 and is the one counted visit', async () => {
    const { url, link } = await confirming();
    const confirmed = await submit(t.app, link.shortCode, { confirm: '1' });
    assert.equal(confirmed.statusCode, 303);
    assert.equal(confirmed.headers.location, url);
    assert.equal(confirmed.headers['cache-control'], 'private, no-store');
    assert.equal(await flushedRedirectCount(t.deps, link.id), 1);
    assert.equal((await submit(t.app, link.shortCode, {})).statusCode, 200, 'a POST without confirm gets the page again');
  });

  test('a link with a password and a confirmation: the right password is the interaction, no second page', async () => {
    const { url, link } = await confirming({ password: 'twice safe' });
    assert.match((await open(t.app, link.shortCode)).body, /name="password"/, 'the password page comes first');
    const right = await submit(t.app, link.shortCode, { password: 'twice safe' });
    assert.equal(right.statusCode, 303);
    assert.equal(right.headers.location, url);
    const withCookie = await open(t.app, link.shortCode, { cookie: cookieOf(right) });
    assert.equal(withCookie.statusCode, 200, 'a later GET with the cookie still asks to confirm');
    assert.match(withCookie.body, /name="confirm"/);
    assert.equal((await submit(t.app, link.shortCode, { confirm: '1' }, { cookie: cookieOf(right) })).statusCode, 303);
    assert.equal((await submit(t.app, link.shortCode, { confirm: '1' })).statusCode, 200, 'confirming without the password opens nothing');
  });

  test('a password posted to a link without one costs the same bcrypt comparison, so timing tells nothing', async () => {
    const { link } = await confirming();
    const before = hashing.comparisons;
    assert.equal((await submit(t.app, link.shortCode, { password: 'a guess', confirm: '1' })).statusCode, 303);
    assert.equal(hashing.comparisons, before + 1);
  });

  test('PATCH turns it on and off, keeping the other options', async () => {
    const url = 'https://example.com/once/toggle';
    const link = await createLink(t.app, user.token, { url });
    assert.equal(link.confirmBeforeRedirect, false);
    await t.deps.database.db.updateTable('links').set({ options: JSON.stringify({ fallbackUrl: 'https://example.com/fallback' }) }).where('id', '=', link.id).execute();
    assert.equal((await patch(link.id, { confirmBeforeRedirect: true })).json().confirmBeforeRedirect, true);
    assert.deepEqual(JSON.parse((await linkRow(t.deps, link.id)).options!), { fallbackUrl: 'https://example.com/fallback', confirmBeforeRedirect: true });
    assert.equal((await open(t.app, link.shortCode)).statusCode, 200);
    assert.equal((await patch(link.id, { confirmBeforeRedirect: false })).json().confirmBeforeRedirect, false);
    assert.deepEqual(JSON.parse((await linkRow(t.deps, link.id)).options!), { fallbackUrl: 'https://example.com/fallback' });
    const plain = await createLink(t.app, user.token, { url: 'https://example.com/once/plain-toggle', confirmBeforeRedirect: true });
    await patch(plain.id, { confirmBeforeRedirect: false });
    assert.equal((await linkRow(t.deps, plain.id)).options, null, 'no options left: a plain link again');
    assert.equal((await open(t.app, plain.shortCode)).statusCode, 301);
  });

  test('an expired confirming link answers 410, not the page', async () => {
    const { link } = await confirming({ expiresAt: iso(t.clock.now() + HOUR) });
    t.clock.advance(2 * HOUR);
    assert.equal((await open(t.app, link.shortCode)).statusCode, 410);
  });

  test('confirm_before_redirect on the workspace API v1, and a non-boolean is a 400', async () => {
    const teamId = await createWorkspace(t.app, user.token);
    const created = await t.app.inject({
      method: 'POST', url: `/api/v1/workspaces/${teamId}/links`, headers: bearer(user.token),
      payload: { original_url: 'https://example.com/once/v1', confirm_before_redirect: true },
    });
    assert.equal(created.json().confirm_before_redirect, true);
    const bad = await t.app.inject({ method: 'POST', url: '/api/urls', headers: bearer(user.token), payload: { url: 'https://example.com/once/bad', confirmBeforeRedirect: 'yes' } });
    assert.equal(bad.statusCode, 400);
  });
});
