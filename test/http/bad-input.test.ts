import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { countLinks } from '../support/links.js';
import { suiteScope } from '../support/teardown.js';

describe('bad input to POST /api/urls/public gets a 4xx problem detail and creates nothing', () => {
  let t: TestApp;
  let blocklist: string;
  before(async () => {
    blocklist = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-blocklist-')), 'blocked.txt');
    fs.writeFileSync(blocklist, '# known bad\nevil.example\n');
    t = await createTestApp(suite, { BLOCKLIST_FILE: blocklist, MAX_URL_LENGTH: '200', RATE_LIMIT_ANON: '0' });
  });
  after(async () => {
    assert.equal(await countLinks(t.deps), 0, 'no bad request created a link');
    fs.rmSync(path.dirname(blocklist), { recursive: true, force: true });
  });
  // Declared after the check above, which needs the app: a suite's after hooks run in the order they are declared.
  const suite = suiteScope();

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

describe('request bodies are read strictly: never decoded with replacement characters (ADR 0008)', () => {
  let t: TestApp;
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_ANON: '0', RATE_LIMIT_AUTH: '0' }); });
  after(async () => {
    assert.equal(await countLinks(t.deps), 0, 'no refused body created a link');
  });
  // Declared after the check above, which needs the app: a suite's after hooks run in the order they are declared.
  const suite = suiteScope();

  const countUsers = async () => Number((await t.deps.database.db.selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  const post = (url: string, contentType: string, payload: string | Buffer) =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });

  async function assertRefused(response: Awaited<ReturnType<typeof post>>, status: number, code: string): Promise<void> {
    assert.equal(response.statusCode, status, response.body);
    assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
    const body = response.json();
    assert.equal(body.status, status);
    assert.equal(body.code, code);
    assert.ok(body.detail.length > 10, 'the detail explains the reason');
  }

  const refusedBodies: Array<[string, string, string | Buffer, number, string]> = [
    ['a Latin-1 byte (0xE4) in the URL', 'application/json', latin1('{"url":"https://example.com/m\xe4dchen"}'), 400, 'body_not_utf8'],
    ['a lone continuation byte', 'application/json', Buffer.from([...Buffer.from('{"url":"https://example.com/'), 0x80, ...Buffer.from('"}')]), 400, 'body_not_utf8'],
    ['an overlong encoding of "/"', 'application/json', Buffer.from([...Buffer.from('{"url":"https://example.com'), 0xc0, 0xaf, ...Buffer.from('"}')]), 400, 'body_not_utf8'],
    ['an encoded UTF-16 surrogate', 'application/json', Buffer.from([...Buffer.from('{"url":"https://example.com/'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')]), 400, 'body_not_utf8'],
    ['a truncated multi-byte sequence at the end', 'application/json', Buffer.from([...Buffer.from('{"url":"https://example.com/"}'), 0xe2, 0x82]), 400, 'body_not_utf8'],
    ['a leading byte order mark', 'application/json', Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('{"url":"https://example.com/"}')]), 400, 'body_bom_not_allowed'],
    ['a declared charset=latin1', 'application/json; charset=latin1', '{"url":"https://example.com/"}', 415, 'media_type_unsupported'],
    ['a declared charset="ISO-8859-1"', 'application/json; charset="ISO-8859-1"', '{"url":"https://example.com/"}', 415, 'media_type_unsupported'],
    ['a declared charset=utf-16', 'application/json;charset=utf-16', '{"url":"https://example.com/"}', 415, 'media_type_unsupported'],
    ['a key given twice', 'application/json', '{"url":"https://example.com/a","url":"https://example.com/b"}', 400, 'body_key_duplicated'],
    ['a key given twice, once escaped', 'application/json', '{"url":"https://example.com/a","\\u0075rl":"https://example.com/b"}', 400, 'body_key_duplicated'],
    ['a truncated body', 'application/json', '{"url":"https://exam', 400, 'json_malformed'],
    ['an empty body', 'application/json', '', 400, 'json_malformed'],
    ['a __proto__ key', 'application/json', '{"url":"https://example.com/","__proto__":{"admin":true}}', 400, 'json_malformed'],
    ['a constructor.prototype key', 'application/json', '{"url":"https://example.com/","constructor":{"prototype":{"admin":true}}}', 400, 'json_malformed'],
    ['10,000 nested arrays', 'application/json', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 400, 'validation_failed'],
    ['a number where the URL belongs', 'application/json', '{"url":12345}', 400, 'validation_failed'],
    ['a form body', 'application/x-www-form-urlencoded', 'url=https%3A%2F%2Fexample.com%2F', 415, 'media_type_unsupported'],
  ];

  for (const [name, contentType, payload, status, code] of refusedBodies) {
    test(`POST /api/urls/public with ${name} is ${status} ${code}`, async () => {
      await assertRefused(await post('/api/urls/public', contentType, payload), status, code);
    });
  }

  test('UTF-8 bodies are accepted, with or without charset=utf-8, and keep every character', async () => {
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"']) {
      const response = await post('/api/urls/public', contentType, Buffer.from('{"url":"https://example.com/m\u00e4dchen"}', 'utf8'));
      assert.equal(response.statusCode, 201, `${contentType}: ${response.body}`);
      assert.equal(response.json().originalUrl, 'https://example.com/m%C3%A4dchen');
      await t.deps.database.db.deleteFrom('links').execute(); // the suite ends by checking no refused body left a row
    }
  });

  test('a password with byte 0xE4 cannot register, and byte 0xF6 in its place cannot log in: 400 and no account', async () => {
    const before = await countUsers();
    const credentials = (byte: string) => latin1(`{"email":"latin1@example.test","password":"p${byte}ssword-1"}`);
    await assertRefused(await post('/api/auth/register', 'application/json', credentials('\xe4')), 400, 'body_not_utf8');
    assert.equal(await countUsers(), before);
    const login = await post('/api/auth/login', 'application/json', credentials('\xf6'));
    await assertRefused(login, 400, 'body_not_utf8');
    assert.equal(login.json().token, undefined);
    assert.equal(await countUsers(), before);
  });

  test('byte 0xF6 no longer logs in to the account whose password holds the character 0xE4 became (U+FFFD)', async () => {
    // The old decoder turned 0xE4 into U+FFFD when the account was made; 0xF6 decoded to the same.
    const storedPassword = 'p\uFFFDssword-1';
    const email = 'replaced@example.test';
    const registered = await post('/api/auth/register', 'application/json', JSON.stringify({ email, password: storedPassword }));
    assert.equal(registered.statusCode, 201, registered.body);
    const users = await countUsers();
    const withF6 = await post('/api/auth/login', 'application/json', latin1(`{"email":"${email}","password":"p\xf6ssword-1"}`));
    await assertRefused(withF6, 400, 'body_not_utf8');
    assert.equal(withF6.json().token, undefined);
    assert.equal(await countUsers(), users);
    const exact = await post('/api/auth/login', 'application/json', JSON.stringify({ email, password: storedPassword }));
    assert.equal(exact.statusCode, 200, 'the account itself still works with its real password');
  });

  test('two passwords that differ only in a non-ASCII character stay two passwords', async () => {
    const email = 'umlaut@example.test';
    const registered = await post('/api/auth/register', 'application/json; charset=utf-8', Buffer.from(JSON.stringify({ email, password: 'p\u00e4ssword-2' }), 'utf8'));
    assert.equal(registered.statusCode, 201, registered.body);
    const other = await post('/api/auth/login', 'application/json', Buffer.from(JSON.stringify({ email, password: 'p\u00f6ssword-2' }), 'utf8'));
    assert.equal(other.statusCode, 401);
    const same = await post('/api/auth/login', 'application/json', Buffer.from(JSON.stringify({ email, password: 'p\u00e4ssword-2' }), 'utf8'));
    assert.equal(same.statusCode, 200);
  });

  test('a body over 64 KiB is still 413 before its encoding is looked at', async () => {
    const huge = Buffer.concat([Buffer.from('{"url":"https://example.com/'), Buffer.alloc(70_000, 0xe4), Buffer.from('"}')]);
    await assertRefused(await post('/api/urls/public', 'application/json', huge), 413, 'body_too_large');
  });
});

describe('destination policy switches', () => {
  test('ALLOW_PRIVATE_DESTINATIONS=true accepts private addresses', async (context) => {
    const t = await createTestApp(context, { ALLOW_PRIVATE_DESTINATIONS: 'true' });
    const res = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'http://127.0.0.1:3000/' } });
    assert.equal(res.statusCode, 201);
  });
});
