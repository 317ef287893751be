import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../support/test-app.js';
import { countLinks, insertLink } from '../support/links.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** A redirect through the given socket address and X-Forwarded-For header; RATE_LIMIT_REDIRECTS=1 shows who the client was taken to be. */
function follower(t: TestApp, code: string) {
  return async (forwardedFor: string | undefined, remoteAddress = '127.0.0.1') => (await t.app.inject({
    url: `/${code}`, remoteAddress, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  })).statusCode;
}

describe('TRUST_PROXY decides which X-Forwarded-For hops are believed', () => {
  test('loopback: a proxy on this host names the client; entries a client forged before it change nothing', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_REDIRECTS: '1', TRUST_PROXY: 'loopback' });
    const follow = follower(t, (await insertLink(t.deps)).code);
    assert.equal(await follow('203.0.113.9'), 301);
    assert.equal(await follow('198.51.100.1, 203.0.113.9'), 429, 'the forged first entry is not the client: 203.0.113.9 still is');
    assert.equal(await follow('203.0.113.10'), 301, 'another client behind the proxy has its own count');
    assert.equal(await follow('203.0.113.9', '::1'), 429, 'IPv6 loopback is the same proxy');
  });

  test('a header from a proxy that is not trusted is ignored: the socket is the client', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_REDIRECTS: '1', TRUST_PROXY: '10.0.0.0/8, 192.168.1.5' });
    const follow = follower(t, (await insertLink(t.deps)).code);
    assert.equal(await follow('203.0.113.1', '198.51.100.50'), 301);
    assert.equal(await follow('203.0.113.2', '198.51.100.50'), 429, 'a client cannot pick a new address by sending the header itself');
    assert.equal(await follow('203.0.113.3', '10.1.2.3'), 301, 'through a trusted proxy the header names the client');
    assert.equal(await follow('203.0.113.3', '192.168.1.5'), 429);
  });

  test('a number of hops: that many hops from the socket are believed, whoever they are', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_REDIRECTS: '1', TRUST_PROXY: '2' });
    const follow = follower(t, (await insertLink(t.deps)).code);
    assert.equal(await follow('198.51.100.1, 203.0.113.5, 10.0.0.2'), 301);
    assert.equal(await follow('198.51.100.2, 203.0.113.5, 10.0.0.3'), 429, 'the third hop, 203.0.113.5, is the client both times');
    assert.equal(await follow('203.0.113.6, 10.0.0.2'), 301);
  });

  test('false (the default): the header is ignored', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_REDIRECTS: '1' });
    const follow = follower(t, (await insertLink(t.deps)).code);
    assert.equal(await follow('203.0.113.1'), 301);
    assert.equal(await follow('203.0.113.2'), 429);
  });

  test('the API\'s rate limits believe the same hops as the redirects', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_ANON: '1', TRUST_PROXY: 'loopback' });
    const create = async (forwardedFor: string) => (await t.app.inject({
      method: 'POST', url: '/api/urls/public', payload: { url: `https://example.com/${forwardedFor}` }, headers: { 'x-forwarded-for': forwardedFor },
    })).statusCode;
    assert.equal(await create('203.0.113.20'), 201);
    assert.equal(await create('198.51.100.1, 203.0.113.20'), 429, 'a forged first entry does not get a new allowance');
    assert.equal(await create('203.0.113.21'), 201);
    assert.equal(await countLinks(t.deps), 2);
  });

  test('a value that is not true, false, a number of hops or addresses is refused at start-up, named', async (context) => {
    await assert.rejects(createTestApp(context, { TRUST_PROXY: 'loopback, nginx' }), /TRUST_PROXY must be .*"nginx"/);
    await assert.rejects(createTestApp(context, { TRUST_PROXY: '10.0.0.0/33' }), /TRUST_PROXY must be/);
  });
});
