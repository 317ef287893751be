import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink, HOUR, iso, postLink } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, uniqueEmail, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const ADMIN = uniqueEmail('admin');

describe('a link\'s fallback URL (fallbackUrl) for gone visitors', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let admin: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-blocklist-'));
    const blocklist = path.join(dir, 'blocklist.txt');
    fs.writeFileSync(blocklist, 'evil.example\n');
    t = await createTestApp(suite, { ADMIN_EMAILS: ADMIN, RATE_LIMIT_AUTH: '0', BLOCKLIST_FILE: blocklist });
    admin = await registerUser(t.app, ADMIN);
    owner = await registerUser(t.app);
  });

  const follow = (code: string) => t.app.inject({ url: `/${code}`, headers: { accept: 'text/html' } });

  test('an expired link with a fallback URL sends visitors there with a 302 that no one keeps', async () => {
    const link = await createLink(t.app, owner.token, {
      url: 'https://example.com/sale', expiresAt: iso(t.clock.now() + HOUR), fallbackUrl: 'https://example.com/sale-over',
    });
    assert.equal((await follow(link.shortCode)).headers.location, 'https://example.com/sale');
    t.clock.advance(HOUR);
    const res = await follow(link.shortCode);
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, 'https://example.com/sale-over');
    assert.equal(res.headers['cache-control'], 'private, no-store');
  });

  test('a deleted link with a fallback URL sends visitors there; without one it answers 410', async () => {
    const withFallback = await createLink(t.app, owner.token, { url: 'https://example.com/removed', fallbackUrl: 'https://example.com/moved' });
    const without = await createLink(t.app, owner.token, { url: 'https://example.com/removed-plain' });
    for (const link of [withFallback, without]) {
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/urls/${link.id}`, headers: bearer(owner.token) })).statusCode, 204);
    }
    const res = await follow(withFallback.shortCode);
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, 'https://example.com/moved');
    assert.equal((await follow(without.shortCode)).statusCode, 410);
  });

  test('a link the operator disabled answers 410 with the reason, not its fallback', async () => {
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/reported', fallbackUrl: 'https://example.com/elsewhere' });
    const disabled = await t.app.inject({ method: 'POST', url: `/api/admin/links/${link.shortCode}/disable`, headers: bearer(admin.token), payload: { reason: 'Reported' } });
    assert.equal(disabled.statusCode, 200, disabled.body);
    const res = await follow(link.shortCode);
    assert.equal(res.statusCode, 410);
    assert.match(res.body, /This link was disabled/);
  });

  test('a live link with a fallback URL redirects to its destination as usual', async () => {
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/live', fallbackUrl: 'https://example.com/unused' });
    const res = await follow(link.shortCode);
    assert.equal(res.statusCode, 302, 'a link with options never answers a permanent redirect');
    assert.equal(res.headers.location, 'https://example.com/live');
  });

  test('a fallback URL on a blocklisted domain is refused like a destination', async () => {
    const res = await postLink(t.app, owner.token, { url: 'https://example.com/ok', fallbackUrl: 'https://evil.example/landing' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'url_domain_blocked');
    assert.equal(res.json().field, 'fallbackUrl');
  });
});
