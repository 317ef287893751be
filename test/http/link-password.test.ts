import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allLinkRows, createLink, createWorkspace, linkRow, postLink } from '../support/owned-links.js';
import { assertGatePageHeaders, assertNoLeak, cookieOf, flushedRedirectCount, open, submit } from '../support/link-gates.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

describe('password-protected links (password, hasPassword)', () => {
  let t: TestApp;
  let user: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    user = await registerUser(t.app);
  });

  let counter = 0;
  const guarded = async (password = 'open sesame') => {
    counter += 1;
    const url = `https://example.com/secret/${counter}`;
    return { url, link: await createLink(t.app, user.token, { url, password }) };
  };
  const patch = (id: number, payload: Record<string, unknown>) => t.app.inject({ method: 'PATCH', url: `/api/urls/${id}`, headers: bearer(user.token), payload });

  test('create stores a bcrypt hash and answers hasPassword, never the password or the hash', async () => {
    const { link } = await guarded('pin-1234');
    assert.equal(link.hasPassword, true);
    assert.equal('password' in link, false);
    const row = await linkRow(t.deps, link.id);
    assert.match(row.password_hash!, /^\$2[aby]\$/);
    const read = await t.app.inject({ method: 'GET', url: `/api/urls/${link.id}`, headers: bearer(user.token) });
    assert.equal(read.json().hasPassword, true);
    assert.ok(!read.body.includes(row.password_hash!) && !read.body.includes('pin-1234'));
    const plain = await createLink(t.app, user.token, { url: 'https://example.com/secret/plain' });
    assert.equal(plain.hasPassword, false);
  });

  test('a browser gets the password page: 200, a form posting to the code, strict headers, no destination', async () => {
    const { url, link } = await guarded();
    const page = await open(t.app, link.shortCode);
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assertGatePageHeaders(page);
    assertNoLeak(page, url);
    assert.match(page.body, new RegExp(`<form method="post" action="/${link.shortCode}">`));
    assert.match(page.body, /<input id="password" name="password" type="password"/);
    assert.ok(!page.body.includes('<script'), 'no script');
  });

  test('HEAD reveals nothing; a JSON client gets a 401 problem and a link-preview bot the page, never the URL', async () => {
    const { url, link } = await guarded();
    const head = await open(t.app, link.shortCode, {}, 'HEAD');
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assertNoLeak(head, url);
    const json = await t.app.inject({ method: 'GET', url: `/${link.shortCode}`, headers: { accept: 'application/json' } });
    assert.equal(json.statusCode, 401);
    assert.equal(json.json().code, 'link_password_required');
    assert.equal(json.json().reason, 'password_required');
    assertNoLeak(json, url);
    const preview = await t.app.inject({ method: 'GET', url: `/${link.shortCode}`, headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', accept: 'text/html' } });
    assert.equal(preview.statusCode, 200, 'a link-preview bot gets the page');
    assertNoLeak(preview, url);
  });

  test('a wrong password answers the page again with 401 and no cookie', async () => {
    const { url, link } = await guarded();
    const wrong = await submit(t.app, link.shortCode, { password: 'not it' });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.headers['set-cookie'], undefined);
    assertGatePageHeaders(wrong);
    assertNoLeak(wrong, url);
    assert.match(wrong.body, /That is not the password/);
  });

  test('the right password: 303 to the destination and an unlock cookie scoped to the code; with it a reload redirects', async () => {
    const { url, link } = await guarded();
    const right = await submit(t.app, link.shortCode, { password: 'open sesame' });
    assert.equal(right.statusCode, 303);
    assert.equal(right.headers.location, url);
    assert.equal(right.headers['cache-control'], 'private, no-store');
    const setCookie = String(right.headers['set-cookie']);
    assert.match(setCookie, new RegExp(`; Path=/${link.shortCode}; Max-Age=3600; HttpOnly; SameSite=Lax$`), 'not Secure on an http base URL');
    const again = await open(t.app, link.shortCode, { cookie: cookieOf(right) });
    assert.equal(again.statusCode, 302);
    assert.equal(again.headers.location, url);
  });

  test('the cookie opens no other link, and no longer its own once the password changed', async () => {
    const first = await guarded();
    const second = await guarded();
    const cookie = cookieOf(await submit(t.app, first.link.shortCode, { password: 'open sesame' }));
    assert.equal((await open(t.app, second.link.shortCode, { cookie })).statusCode, 200, 'the other link shows its page');
    assert.equal((await open(t.app, first.link.shortCode, { cookie: cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) })).statusCode, 200, 'a forged cookie');
    assert.equal((await patch(first.link.id, { password: 'a new one' })).statusCode, 200);
    const page = await open(t.app, first.link.shortCode, { cookie });
    assert.equal(page.statusCode, 200);
    assertNoLeak(page, first.url);
  });

  test('five wrong passwords per client and link, then 429 with Retry-After, even for the right one', async () => {
    const { url, link } = await guarded();
    for (let attempt = 0; attempt < 5; attempt++) assert.equal((await submit(t.app, link.shortCode, { password: `guess ${attempt}` })).statusCode, 401);
    const limited = await submit(t.app, link.shortCode, { password: 'open sesame' });
    assert.equal(limited.statusCode, 429);
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assertNoLeak(limited, url);
    const other = await guarded();
    assert.equal((await submit(t.app, other.link.shortCode, { password: 'open sesame' })).statusCode, 303, 'another link is not held up');
  });

  test('only the redirect after the right password is a counted visit', async () => {
    const { link } = await guarded();
    await open(t.app, link.shortCode);
    await open(t.app, link.shortCode, {}, 'HEAD');
    await submit(t.app, link.shortCode, { password: 'wrong one' });
    assert.equal(await flushedRedirectCount(t.deps, link.id), 0);
    await submit(t.app, link.shortCode, { password: 'open sesame' });
    assert.equal(await flushedRedirectCount(t.deps, link.id), 1);
  });

  test('bad passwords are refused with a 400 naming the field, nothing stored', async () => {
    const before = await allLinkRows(t.deps);
    for (const password of ['abc', 'x'.repeat(73), 'é'.repeat(37), 'nul\0char']) {
      const response = await postLink(t.app, user.token, { url: 'https://example.com/secret/bad', password });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().field, 'password');
    }
    const { link } = await guarded();
    const snapshot = await linkRow(t.deps, link.id);
    const edit = await patch(link.id, { password: 'abc' });
    assert.equal(edit.statusCode, 400);
    assert.equal(edit.json().field, 'password');
    assert.deepEqual(await linkRow(t.deps, link.id), snapshot);
    assert.equal((await postLink(t.app, user.token, { url: 'https://example.com/secret/num', password: 1234 })).statusCode, 400);
    assert.equal((await allLinkRows(t.deps)).length, before.length + 1);
  });

  test('anonymous links take no password', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/secret/anon', password: 'open sesame' } });
    assert.equal(response.statusCode, 400);
  });

  test('PATCH sets a password on a cached plain link, and null removes it', async () => {
    const url = 'https://example.com/secret/later';
    const link = await createLink(t.app, user.token, { url });
    assert.equal((await open(t.app, link.shortCode)).statusCode, 301, 'cached as plain');
    const set = await patch(link.id, { password: 'from now on' });
    assert.equal(set.json().hasPassword, true);
    assertNoLeak(await open(t.app, link.shortCode), url);
    const removed = await patch(link.id, { password: null });
    assert.equal(removed.json().hasPassword, false);
    assert.equal((await linkRow(t.deps, link.id)).password_hash, null);
    assert.equal((await open(t.app, link.shortCode)).headers.location, url);
  });

  test('the workspace API v1 takes password and answers has_password', async () => {
    const teamId = await createWorkspace(t.app, user.token);
    const created = await t.app.inject({
      method: 'POST', url: `/api/v1/workspaces/${teamId}/links`, headers: bearer(user.token),
      payload: { original_url: 'https://example.com/secret/v1', password: 'v1 secret' },
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json().has_password, true);
    const code = created.json().short_code as string;
    assert.equal((await submit(t.app, code, { password: 'v1 secret' })).statusCode, 303);
    const removed = await t.app.inject({
      method: 'PATCH', url: `/api/v1/workspaces/${teamId}/links/${code}`, headers: bearer(user.token), payload: { password: null },
    });
    assert.equal(removed.json().has_password, false);
  });

  test('a POST that is not the page\'s form is a 415', async () => {
    const { link } = await guarded();
    const json = await t.app.inject({ method: 'POST', url: `/${link.shortCode}`, payload: { password: 'open sesame' } });
    assert.equal(json.statusCode, 415);
  });
});
