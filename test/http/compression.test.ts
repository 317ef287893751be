import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { loadUiBuild } from '../../src/http/ui-assets.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { insertLink } from '../support/links.js';
import { suiteScope } from '../support/teardown.js';
import { bearer, registerUser } from '../support/users.js';

const decode: Record<string, (body: Buffer) => Buffer> = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync };

/** Lean delivery: the UI's files go compressed at build time, JSON answers over a kilobyte compressed on the fly, redirects never. */
describe('compression by Accept-Encoding', () => {
  let t: TestApp;
  const build = loadUiBuild()!;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite); });

  test('every script and stylesheet of the build has brotli and gzip twins, sent by what the client accepts, always with Vary', async () => {
    const compressed = [...build.assets].filter(([, file]) => file.encoded.size > 0);
    assert.ok(compressed.some(([url]) => url.endsWith('.js')) && compressed.some(([url]) => url.endsWith('.css')));
    for (const [url, file] of compressed) {
      for (const [accept, expected] of [['gzip, deflate, br, zstd', 'br'], ['gzip, deflate', 'gzip'], ['br;q=0, gzip', 'gzip'], ['', undefined], ['identity', undefined]] as const) {
        const res = await t.app.inject({ url, headers: accept ? { 'accept-encoding': accept } : {} });
        assert.equal(res.statusCode, 200, `${url} ${accept}`);
        assert.equal(res.headers['content-encoding'], expected, `${url} ${accept}`);
        assert.equal(res.headers.vary, 'accept-encoding', `${url} ${accept}`);
        assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable', `${url} ${accept}`);
        const body = expected ? decode[expected]!(res.rawPayload) : res.rawPayload;
        assert.ok(body.equals(file.body), `${url} ${accept}: the same bytes once decoded`);
        // A chunk of a kilobyte or two has too little repetition to halve; the larger ones must.
        if (expected && file.body.length > 4096) assert.ok(res.rawPayload.length < file.body.length / 2, `${url}: ${res.rawPayload.length} of ${file.body.length} bytes`);
      }
    }
  });

  test('the recipient pages\' stylesheet is served at /page.css, compressed too', async () => {
    const res = await t.app.inject({ url: '/page.css?v=anything', headers: { 'accept-encoding': 'br' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/css; charset=utf-8');
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(res.headers.vary, 'accept-encoding');
    assert.match(res.headers['cache-control'] as string, /^public, max-age=\d+$/);
    assert.match(zlib.brotliDecompressSync(res.rawPayload).toString(), /prefers-color-scheme:\s?dark/);
  });

  test('a JSON answer over 1 KB is compressed when accepted; a small one, or one not accepted, goes as it is', async () => {
    const user = await registerUser(t.app);
    for (let i = 0; i < 8; i++) {
      const created = await t.app.inject({ method: 'POST', url: '/api/urls', headers: bearer(user.token), payload: { url: `https://example.com/a/rather/long/path/${i}?utm_source=newsletter&utm_medium=email` } });
      assert.equal(created.statusCode, 201, created.body);
    }
    const plain = await t.app.inject({ url: '/api/urls', headers: bearer(user.token) });
    assert.ok(plain.rawPayload.length > 1024, `the list is ${plain.rawPayload.length} bytes`);
    assert.equal(plain.headers['content-encoding'], undefined);
    for (const [accept, expected] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip']] as const) {
      const res = await t.app.inject({ url: '/api/urls', headers: { ...bearer(user.token), 'accept-encoding': accept } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-encoding'], expected, accept);
      assert.match(String(res.headers.vary), /accept-encoding/i, accept);
      assert.deepEqual(JSON.parse(decode[expected]!(res.rawPayload).toString()), plain.json(), accept);
    }
    const small = await t.app.inject({ url: '/api/instance', headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(small.statusCode, 200);
    assert.ok(small.rawPayload.length < 1024);
    assert.equal(small.headers['content-encoding'], undefined);
  });

  test('redirects and their failure answers are never compressed', async () => {
    const link = await insertLink(t.deps);
    const accept = { 'accept-encoding': 'br, gzip' };
    const redirect = await t.app.inject({ url: `/${link.code}`, headers: accept });
    assert.equal(redirect.statusCode, 301);
    assert.equal(redirect.headers['content-encoding'], undefined);
    assert.equal(redirect.headers.vary, undefined);
    const page = await t.app.inject({ url: '/NoSuchCode1', headers: { ...accept, accept: 'text/html' } });
    assert.equal(page.statusCode, 404);
    assert.equal(page.headers['content-encoding'], undefined);
  });
});
