import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { countLinks } from '../support/links.js';

describe('bad input to POST /api/urls/public gets a 4xx problem detail and creates nothing', () => {
  let t: TestApp;
  let blocklist: string;
  before(async () => {
    blocklist = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-blocklist-')), 'blocked.txt');
    fs.writeFileSync(blocklist, '# known bad\nevil.example\n');
    t = await createTestApp({ BLOCKLIST_FILE: blocklist, MAX_URL_LENGTH: '200', RATE_LIMIT_ANON: '0' });
  });
  after(async () => {
    assert.equal(await countLinks(t.deps), 0, 'no bad request created a link');
    await t.close();
    fs.rmSync(path.dirname(blocklist), { recursive: true, force: true });
  });

  const rejectedUrls: Array<[string, string]> = [
    ['javascript:alert(1)', 'url_scheme_not_allowed'],
    ['data:text/html,<script>alert(1)</script>', 'url_scheme_not_allowed'],
    ['file:///etc/passwd', 'url_scheme_not_allowed'],
    ['ftp://example.com/file', 'url_scheme_not_allowed'],
    ['java\tscript:alert(1)', 'url_whitespace_not_allowed'],
    ['https://user:pass@example.com/', 'url_userinfo_not_allowed'],
    ['https://example.com/a b', 'url_whitespace_not_allowed'],
    ['https://example.com/a\r\nSet-Cookie: x=1', 'url_whitespace_not_allowed'],
    ['http://sho.rt/abc', 'url_loop_not_allowed'],
    ['http://127.0.0.1/admin', 'url_private_address_not_allowed'],
    ['http://0x7f000001/', 'url_private_address_not_allowed'],
    ['http://169.254.169.254/latest/meta-data', 'url_private_address_not_allowed'],
    ['http://10.1.2.3/', 'url_private_address_not_allowed'],
    ['http://[::1]/', 'url_private_address_not_allowed'],
    ['https://evil.example/', 'url_domain_blocked'],
    ['https://www.evil.example./', 'url_domain_blocked'],
    [`https://example.com/${'a'.repeat(200)}`, 'url_too_long'],
    ['not a url', 'url_whitespace_not_allowed'],
    ['example.com/no-scheme', 'url_invalid'],
    ['', 'url_invalid'],
  ];

  for (const [url, code] of rejectedUrls) {
    test(`refuses ${JSON.stringify(url.slice(0, 50))} with ${code}`, async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      const body = res.json();
      assert.equal(body.code, code);
      assert.equal(body.status, 400);
      assert.ok(body.detail.length > 10, 'the detail explains the reason');
    });
  }

  test('malformed JSON is a 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/urls/public', headers: { 'content-type': 'application/json' }, payload: '{"url": "https://example.com/"' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'json_malformed');
  });

  test('an unknown field is a 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/', admin: true } });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'validation_failed');
    assert.match(res.json().detail, /admin/);
  });

  test('a missing url, a number or null where text belongs are 400s', async () => {
    for (const payload of [{}, { url: 12345 }, { url: null }, { url: ['https://example.com/'] }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
    }
  });

  test('a __proto__ key is refused', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/urls/public', headers: { 'content-type': 'application/json' }, payload: '{"url":"https://example.com/","__proto__":{"x":1}}' });
    assert.equal(res.statusCode, 400);
  });

  test('a body over 64 KiB is a 413', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: `https://example.com/${'a'.repeat(70_000)}` } });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().code, 'body_too_large');
  });

  test('a body that is not JSON is a 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/urls/public', headers: { 'content-type': 'text/plain' }, payload: 'https://example.com/' });
    assert.equal(res.statusCode, 415);
  });
});

describe('destination policy switches', () => {
  test('ALLOW_PRIVATE_DESTINATIONS=true accepts private addresses', async () => {
    const t = await createTestApp({ ALLOW_PRIVATE_DESTINATIONS: 'true' });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'http://127.0.0.1:3000/' } });
      assert.equal(res.statusCode, 201);
    } finally {
      await t.close();
    }
  });
});
