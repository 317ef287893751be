import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { insertLink, setLinkColumns } from '../support/links.js';
import { suiteScope } from '../support/teardown.js';

const HOUR = 3_600_000;

describe('GET /{code} answers each link state as docs/specification.md says', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite); });

  test('a permanent link without expiry answers 301 with a public cache lifetime', async () => {
    const link = await insertLink(t.deps, { originalUrl: 'https://example.com/a?x=1#frag' });
    const res = await t.app.inject({ method: 'GET', url: `/${link.code}` });
    assert.equal(res.statusCode, 301);
    assert.equal(res.headers.location, 'https://example.com/a?x=1#frag');
    assert.equal(res.headers['cache-control'], 'public, max-age=300', 'REDIRECT_MAX_AGE defaults to 300 (docs/specification.md)');
    assert.equal(res.body, '');
  });

  test('a link with a future expiry answers 302 that clients must not cache', async () => {
    const link = await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() + HOUR });
    const res = await t.app.inject({ method: 'GET', url: `/${link.code}` });
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, link.originalUrl);
    assert.equal(res.headers['cache-control'], 'private, no-cache');
  });

  test('a query string after the code is ignored', async () => {
    const link = await insertLink(t.deps);
    const res = await t.app.inject({ method: 'GET', url: `/${link.code}?utm_source=x` });
    assert.equal(res.statusCode, 301);
  });

  test('an expiry is enforced to the millisecond, even for a cached entry whose row still says ACTIVE', async () => {
    const expiresAt = t.clock.now() + HOUR;
    const link = await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt });
    assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 302); // now cached
    t.clock.set(expiresAt - 1);
    assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 302);
    t.clock.set(expiresAt);
    const res = await t.app.inject({ url: `/${link.code}` });
    assert.equal(res.statusCode, 410);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    const body = res.json();
    assert.equal(body.code, 'link_expired');
    assert.equal(body.reason, 'expired');
    assert.equal(body.status, 410);
  });

  test('a link the reaper marked EXPIRED answers 410 expired', async () => {
    const link = await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() - 1 });
    await setLinkColumns(t.deps, link.id, { status: 'EXPIRED' });
    const res = await t.app.inject({ url: `/${link.code}` });
    assert.equal(res.statusCode, 410);
    assert.equal(res.json().reason, 'expired');
  });

  test('a soft-deleted link answers 410 with the reason deleted', async () => {
    const link = await insertLink(t.deps);
    await setLinkColumns(t.deps, link.id, { status: 'DELETED', deleted_at: t.clock.now() });
    const res = await t.app.inject({ url: `/${link.code}` });
    assert.equal(res.statusCode, 410);
    assert.equal(res.json().code, 'link_deleted');
    assert.equal(res.json().reason, 'deleted');
  });

  test('an unknown code answers 404 as a problem detail', async () => {
    const res = await t.app.inject({ url: '/NoSuchCode' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail', 'status', 'title', 'type']);
    assert.equal(res.json().code, 'link_not_found');
  });

  test('a path that cannot be a code answers 404', async () => {
    for (const url of ['/has.dot', '/%00', '/a%2Fb', `/${'x'.repeat(65)}`]) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 404, url);
    }
  });

  test('a browser gets a small HTML page with the same status', async () => {
    const link = await insertLink(t.deps);
    await setLinkColumns(t.deps, link.id, { status: 'DELETED', deleted_at: t.clock.now() });
    const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const gone = await t.app.inject({ url: `/${link.code}`, headers: { accept } });
    assert.equal(gone.statusCode, 410);
    assert.match(gone.headers['content-type'] as string, /^text\/html/);
    assert.match(gone.body, /This link was deleted/);
    const missing = await t.app.inject({ url: '/Nothing42', headers: { accept } });
    assert.equal(missing.statusCode, 404);
    assert.match(missing.body, /This link does not exist/);
  });

  test('HEAD answers like GET without a body', async () => {
    const link = await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() + HOUR });
    const res = await t.app.inject({ method: 'HEAD', url: `/${link.code}` });
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, link.originalUrl);
    const missing = await t.app.inject({ method: 'HEAD', url: '/Nothing43' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.body, '');
  });
});

describe('/{code}/ with one trailing slash answers exactly as /{code} (docs/specification.md)', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite); });

  const answer = async (method: 'GET' | 'HEAD', url: string) => {
    const res = await t.app.inject({ method, url });
    return { status: res.statusCode, location: res.headers.location, cacheControl: res.headers['cache-control'], contentType: res.headers['content-type'], body: res.body };
  };

  test('GET and HEAD on every link state answer the same with and without the slash', async () => {
    const permanent = await insertLink(t.deps, { originalUrl: 'https://example.com/slash?x=1#top' });
    const expiring = await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() + HOUR });
    const deleted = await insertLink(t.deps);
    await setLinkColumns(t.deps, deleted.id, { status: 'DELETED', deleted_at: t.clock.now() });
    const expected = new Map([[permanent.code, 301], [expiring.code, 302], [deleted.code, 410], ['NeverMade7', 404]]);
    for (const [code, status] of expected) {
      for (const method of ['GET', 'HEAD'] as const) {
        const plain = await answer(method, `/${code}`);
        assert.equal(plain.status, status, `${method} /${code}`);
        assert.deepEqual(await answer(method, `/${code}/`), plain, `${method} /${code}/`);
        assert.deepEqual(await answer(method, `/${code}/?utm_source=chat`), plain, `${method} /${code}/?utm_source=chat`);
      }
    }
  });

  test('only one slash: two slashes, or a segment after it, are not a short link', async () => {
    const link = await insertLink(t.deps);
    for (const url of [`/${link.code}//`, `/${link.code}/x`, `//${link.code}`]) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 404, url);
      assert.notEqual(res.json().code, undefined);
    }
  });

  test('reserved words keep their routes with a trailing slash: /api/ is not a short link', async () => {
    const res = await t.app.inject({ url: '/api/' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, 'route_not_found');
  });
});

describe('redirect status codes are configurable', () => {
  test('PERMANENT_REDIRECT_STATUS, TEMPORARY_REDIRECT_STATUS and REDIRECT_MAX_AGE are honoured', async (context) => {
    const t = await createTestApp(context, { PERMANENT_REDIRECT_STATUS: '308', TEMPORARY_REDIRECT_STATUS: '307', REDIRECT_MAX_AGE: '60' });
    const permanent = await insertLink(t.deps);
    const expiring = await insertLink(t.deps, { expiresAt: t.clock.now() + HOUR });
    const a = await t.app.inject({ url: `/${permanent.code}` });
    assert.equal(a.statusCode, 308);
    assert.equal(a.headers['cache-control'], 'public, max-age=60');
    assert.equal((await t.app.inject({ url: `/${expiring.code}` })).statusCode, 307);
  });
});
