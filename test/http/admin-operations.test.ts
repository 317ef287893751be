import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLink, visit } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, DEFAULT_PASSWORD, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const ADMIN = `operator-ops-${process.pid}@example.test`;

describe('what the operator does: disable links and users, read the instance', () => {
  let t: TestApp;
  let admin: RegisteredUser;
  let owner: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-blocklist-'));
    const blocklist = path.join(dir, 'blocklist.txt');
    fs.writeFileSync(blocklist, 'evil.example\nphish.example\nbad.test\n');
    t = await createTestApp(suite, { ADMIN_EMAILS: ADMIN, RATE_LIMIT_AUTH: '0', BLOCKLIST_FILE: blocklist });
    admin = await registerUser(t.app, ADMIN);
    owner = await registerUser(t.app);
  });

  const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, payload, headers: bearer(admin.token) });
  const disable = (code: string, reason: string) => asAdmin('POST', `/api/admin/links/${code}/disable`, { reason });

  test('a disabled link answers 410 with the reason at once, cached or not, in JSON and on the page; enabling restores it', async () => {
    const { shortCode } = await createLink(t.app, owner.token, { url: 'https://example.com/abused' });
    assert.equal((await visit(t.app, shortCode)).status, 301, 'the first visit fills the cache');
    const disabled = await disable(shortCode, '  Phishing <b>report</b> #42 ');
    assert.equal(disabled.statusCode, 200, disabled.body);
    assert.equal(disabled.json().disabledReason, 'Phishing <b>report</b> #42');
    assert.equal(disabled.json().ownerEmail, owner.user.email);
    const json = await t.app.inject({ url: `/${shortCode}` });
    assert.equal(json.statusCode, 410);
    assert.equal(json.headers['cache-control'], 'no-store');
    assert.deepEqual({ code: json.json().code, reason: json.json().reason, disabledReason: json.json().disabledReason },
      { code: 'link_disabled', reason: 'disabled', disabledReason: 'Phishing <b>report</b> #42' });
    const page = await t.app.inject({ url: `/${shortCode}`, headers: { accept: 'text/html' } });
    assert.equal(page.statusCode, 410);
    assert.match(page.body, /This link was disabled/);
    assert.match(page.body, /Phishing &#60;b&#62;report&#60;\/b&#62; #42/, 'the reason is escaped');
    assert.ok(!page.body.includes('<b>report'));
    assert.equal((await t.app.inject({ method: 'HEAD', url: `/${shortCode}` })).statusCode, 410);

    const enabled = await asAdmin('POST', `/api/admin/links/${shortCode}/enable`);
    assert.equal(enabled.json().disabledReason, null);
    assert.equal((await visit(t.app, shortCode)).status, 301);
  });

  test('the owner\'s delete and restore leave the operator\'s disable in place', async () => {
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/owner-undo' });
    await disable(link.shortCode, 'Malware');
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/urls/${link.id}`, headers: bearer(owner.token) })).statusCode, 204);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/urls/${link.id}/restore`, headers: bearer(owner.token) })).statusCode, 200);
    const answer = await t.app.inject({ url: `/${link.shortCode}` });
    assert.equal(answer.statusCode, 410);
    assert.equal(answer.json().code, 'link_disabled');
    const seenByOwner = await t.app.inject({ url: `/api/urls/${link.id}`, headers: bearer(owner.token) });
    assert.deepEqual([seenByOwner.json().status, seenByOwner.json().disabledReason], ['ACTIVE', 'Malware'], 'its owner sees why it stopped');
  });

  test('a reason that is blank, too long or holds control characters is refused and changes nothing', async () => {
    const { shortCode } = await createLink(t.app, owner.token, { url: 'https://example.com/reasons' });
    for (const reason of ['   ', 'x'.repeat(501), 'tab\tand\u0007bell']) {
      const response = await disable(shortCode, reason);
      assert.equal(response.statusCode, 400, reason);
      assert.match(response.json().code, /^(disable_reason_invalid|validation_failed)$/);
    }
    assert.equal((await asAdmin('GET', `/api/admin/links/${shortCode}`)).json().disabledReason, null);
    assert.equal((await visit(t.app, shortCode)).status, 301);
  });

  test('an unknown code answers 404 link_not_found to the admin', async () => {
    for (const [method, url] of [['GET', '/api/admin/links/nosuchcode'], ['POST', '/api/admin/links/nosuchcode/enable']] as const) {
      const response = await asAdmin(method, url);
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().code, 'link_not_found');
    }
  });

  test('a disabled user cannot sign in, their token and API keys stop at once; enabled, they work again', async () => {
    const user = await registerUser(t.app);
    const key = await createApiKey(t.app, user.token, user.personalWorkspaceId);
    const { shortCode } = await createLink(t.app, user.token, { url: 'https://example.com/users-link' });
    const me = () => t.app.inject({ url: '/api/auth/me', headers: bearer(user.token) });
    const withKey = () => t.app.inject({ url: `/api/v1/workspaces/${user.personalWorkspaceId}/links`, headers: bearer(key) });
    const login = () => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.user.email, password: DEFAULT_PASSWORD } });

    const disabled = await asAdmin('POST', `/api/admin/users/${user.user.id}/disable`);
    assert.equal(disabled.statusCode, 200);
    assert.notEqual(disabled.json().disabledAt, null);
    assert.equal((await me()).statusCode, 401);
    assert.equal((await withKey()).statusCode, 401);
    const refused = await login();
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'account_disabled');
    const wrongPassword = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.user.email, password: 'wrong password!' } });
    assert.equal(wrongPassword.json().code, 'credentials_invalid', 'only the right password learns the account is disabled');
    assert.equal((await visit(t.app, shortCode)).status, 301, 'their links keep redirecting');

    assert.equal((await asAdmin('POST', `/api/admin/users/${user.user.id}/enable`)).json().disabledAt, null);
    assert.equal((await me()).statusCode, 200);
    assert.equal((await withKey()).statusCode, 200);
    assert.equal((await login()).statusCode, 200);
  });

  test('an admin cannot disable themselves (409), and an unknown user is 404', async () => {
    const self = await asAdmin('POST', `/api/admin/users/${admin.user.id}/disable`);
    assert.equal(self.statusCode, 409);
    assert.equal(self.json().code, 'user_disable_self');
    const unknown = await asAdmin('POST', '/api/admin/users/999999/disable');
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'user_not_found');
  });

  test('users are searched by a part of their email, newest first, a page at a time', async () => {
    const tag = `findme${process.pid}`;
    const found = [];
    for (let i = 0; i < 3; i++) found.push(await registerUser(t.app, `${tag}-${i}@example.test`));
    const first = await asAdmin('GET', `/api/admin/users?q=${tag.toUpperCase()}&limit=2`);
    assert.equal(first.statusCode, 200);
    assert.deepEqual(first.json().items.map((u: { email: string }) => u.email), [found[2]!.user.email, found[1]!.user.email]);
    const second = await asAdmin('GET', `/api/admin/users?q=${tag}&limit=2&cursor=${first.json().nextCursor}`);
    assert.deepEqual(second.json().items.map((u: { email: string }) => u.email), [found[0]!.user.email]);
    assert.equal(second.json().nextCursor, null);
    assert.deepEqual((await asAdmin('GET', '/api/admin/users?q=%25')).json().items, [], 'a % matches itself, not everything');
  });

  test('the overview counts users, links by state and traffic', async () => {
    const before = (await asAdmin('GET', '/api/admin/overview')).json();
    const { shortCode } = await createLink(t.app, owner.token, { url: 'https://example.com/counted' });
    await disable(shortCode, 'Spam');
    const after = (await asAdmin('GET', '/api/admin/overview')).json();
    assert.equal(after.links.disabled, before.links.disabled + 1);
    assert.equal(after.links.permanent, before.links.permanent + 1);
    assert.equal(after.links.active, before.links.active);
    assert.ok(after.users.total >= 2);
    assert.ok(after.users.admins >= 1);
    assert.equal(typeof after.traffic.totalRedirects, 'number');
  });

  test('the blocklist in force is listed, searched and counted', async () => {
    const all = (await asAdmin('GET', '/api/admin/blocklist')).json();
    assert.deepEqual({ total: all.total, matching: all.matching, domains: all.domains }, { total: 3, matching: 3, domains: ['bad.test', 'evil.example', 'phish.example'] });
    assert.match(all.file, /blocklist\.txt$/);
    const some = (await asAdmin('GET', '/api/admin/blocklist?q=EXAMPLE&limit=1')).json();
    assert.deepEqual({ matching: some.matching, domains: some.domains }, { matching: 2, domains: ['evil.example'] });
  });

  test('reaper runs are listed newest first', async () => {
    for (let i = 0; i < 2; i++) {
      const run = await asAdmin('POST', '/api/admin/cleanup/run');
      assert.equal(run.statusCode, 200, run.body);
      t.clock.advance(15 * 60_000); // past the lock's least hold
    }
    const runs = (await asAdmin('GET', '/api/admin/cleanup/runs?limit=1')).json();
    assert.equal(runs.items.length, 1);
    assert.equal(runs.items[0].status, 'succeeded');
    const all = (await asAdmin('GET', '/api/admin/cleanup/runs')).json();
    assert.ok(all.items.length >= 2);
    assert.ok(all.items[0].id > all.items[1].id);
  });
});
