import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { insertLink, setLinkColumns } from '../support/links.js';
import { suiteScope } from '../support/teardown.js';

const HOUR = 3_600_000;
const NOT_FOUND = 'https://example.com/not-found';
const EXPIRED = 'https://example.com/expired?from=sho.rt';
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** NOT_FOUND_REDIRECT_URL and EXPIRED_REDIRECT_URL: the operator's pages instead of Linkforge's 404 and 410. */
describe('failure redirects configured', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { NOT_FOUND_REDIRECT_URL: NOT_FOUND, EXPIRED_REDIRECT_URL: EXPIRED }); });

  test('an unknown code sends every client to NOT_FOUND_REDIRECT_URL with a 302 nobody caches', async () => {
    for (const [method, headers] of [['GET', BROWSER], ['GET', { accept: 'application/json' }], ['HEAD', BROWSER]] as const) {
      const res = await t.app.inject({ method, url: '/NoSuchCode7', headers });
      assert.equal(res.statusCode, 302, `${method} ${headers.accept}`);
      assert.equal(res.headers.location, NOT_FOUND);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.body, '');
    }
  });

  test('expired and deleted links send the visitor to EXPIRED_REDIRECT_URL', async () => {
    const expired = await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() - HOUR });
    const deleted = await insertLink(t.deps);
    await setLinkColumns(t.deps, deleted.id, { status: 'DELETED', deleted_at: t.clock.now() });
    for (const link of [expired, deleted]) {
      const res = await t.app.inject({ url: `/${link.code}`, headers: BROWSER });
      assert.equal(res.statusCode, 302, link.code);
      assert.equal(res.headers.location, EXPIRED, link.code);
      assert.equal(res.headers['cache-control'], 'no-store', link.code);
    }
  });

  test('a live link still redirects to its own destination', async () => {
    const link = await insertLink(t.deps);
    const res = await t.app.inject({ url: `/${link.code}`, headers: BROWSER });
    assert.equal(res.statusCode, 301);
    assert.equal(res.headers.location, link.originalUrl);
  });
});

describe('only NOT_FOUND_REDIRECT_URL configured', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { NOT_FOUND_REDIRECT_URL: NOT_FOUND }); });

  test('unknown codes are sent on, expired links keep the 410 page', async () => {
    assert.equal((await t.app.inject({ url: '/NoSuchCode8', headers: BROWSER })).headers.location, NOT_FOUND);
    const expired = await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() - HOUR });
    const page = await t.app.inject({ url: `/${expired.code}`, headers: BROWSER });
    assert.equal(page.statusCode, 410);
    assert.match(page.body, /This link has expired/);
  });
});
