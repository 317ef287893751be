import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allLinkRows, createLink, createWorkspace, linkRow } from '../support/owned-links.js';
import { HUMAN_UA } from '../support/proxied-visits.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { suiteScope } from '../support/teardown.js';
import { bearer, registerUser } from '../support/users.js';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
/** Addresses whose country the bundled DB-IP Lite database gives (as in visit-countries.test.ts). */
const GB = '81.2.69.142';
const NL = '193.0.6.139';

describe('routes and variants choose where a link sends its visitor (ADR 0031)', () => {
  let t: TestApp;
  let token: string;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', RATE_LIMIT_REDIRECTS: '0', TRUST_PROXY: 'loopback' });
    token = (await registerUser(t.app)).token;
  });

  const follow = async (code: string, headers: Record<string, string> = {}) => {
    const response = await t.app.inject({ url: `/${code}`, headers: { 'user-agent': HUMAN_UA, ...headers } });
    assert.equal(response.statusCode, 302, response.body);
    assert.equal(response.headers['cache-control'], 'private, no-store');
    return response.headers.location as string;
  };

  test('a route by device, by language and by country; the first match wins; no match is the link\'s URL', async () => {
    const link = await createLink(t.app, token, {
      url: 'https://example.com/home',
      routes: [
        { device: ['ios'], url: 'https://example.com/app-store' },
        { country: ['gb'], language: ['DE'], url: 'https://example.com/gb-german' },
        { device: ['android'], url: 'https://example.com/play' },
        { language: ['de'], url: 'https://example.com/de' },
        { country: ['NL'], url: 'https://example.com/nl' },
      ],
    });
    assert.deepEqual(link.routes, [
      { device: ['ios'], url: 'https://example.com/app-store' },
      { country: ['GB'], language: ['de'], url: 'https://example.com/gb-german' },
      { device: ['android'], url: 'https://example.com/play' },
      { language: ['de'], url: 'https://example.com/de' },
      { country: ['NL'], url: 'https://example.com/nl' },
    ], 'stored upper- and lower-cased');
    assert.equal(await follow(link.shortCode, { 'user-agent': IPHONE, 'accept-language': 'de' }), 'https://example.com/app-store');
    assert.equal(await follow(link.shortCode, { 'user-agent': ANDROID }), 'https://example.com/play');
    assert.equal(await follow(link.shortCode, { 'accept-language': 'fr-FR, de-CH;q=0.8' }), 'https://example.com/de');
    assert.equal(await follow(link.shortCode, { 'x-forwarded-for': NL }), 'https://example.com/nl');
    assert.equal(await follow(link.shortCode, { 'x-forwarded-for': GB, 'accept-language': 'de' }), 'https://example.com/gb-german', 'both conditions of the earlier route');
    assert.equal(await follow(link.shortCode, { 'x-forwarded-for': GB, 'accept-language': 'en' }), 'https://example.com/home');
    assert.equal(await follow(link.shortCode), 'https://example.com/home');
  });

  test('variants split distinct visitors roughly by weight, and one address and browser keep their variant', async () => {
    const link = await createLink(t.app, token, {
      url: 'https://example.com/split',
      variants: [{ url: 'https://example.com/a', weight: 3 }, { url: 'https://example.com/b', weight: 1 }],
    });
    const seen = { 'https://example.com/a': 0, 'https://example.com/b': 0 } as Record<string, number>;
    for (let i = 0; i < 400; i++) seen[await follow(link.shortCode, { 'x-forwarded-for': `203.0.${i >> 8}.${i & 255}` })]! += 1;
    assert.equal(seen['https://example.com/a']! + seen['https://example.com/b']!, 400);
    assert.ok(seen['https://example.com/a']! > 240 && seen['https://example.com/a']! < 360, JSON.stringify(seen));
    for (const address of ['198.51.100.7', '198.51.100.8', '198.51.100.9']) {
      const first = await follow(link.shortCode, { 'x-forwarded-for': address });
      for (let i = 0; i < 10; i++) assert.equal(await follow(link.shortCode, { 'x-forwarded-for': address }), first);
    }
  });

  test('a route takes precedence over the variants', async () => {
    const link = await createLink(t.app, token, {
      url: 'https://example.com/both',
      routes: [{ device: ['ios'], url: 'https://example.com/ios' }],
      variants: [{ url: 'https://example.com/x', weight: 1 }, { url: 'https://example.com/y', weight: 1 }],
    });
    assert.equal(await follow(link.shortCode, { 'user-agent': IPHONE }), 'https://example.com/ios');
    assert.match(await follow(link.shortCode), /^https:\/\/example\.com\/[xy]$/);
  });

  test('PATCH sets and removes them (null or []), keeps the other key, and the next redirect follows', async () => {
    const link = await createLink(t.app, token, { url: 'https://example.com/edit' });
    const patch = async (payload: Record<string, unknown>) => {
      const response = await t.app.inject({ method: 'PATCH', url: `/api/urls/${link.id}`, headers: bearer(token), payload });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };
    assert.equal((await t.app.inject({ url: `/${link.shortCode}` })).statusCode, 301);
    await patch({ routes: [{ language: ['de'], url: 'https://example.com/de' }] });
    const both = await patch({ variants: [{ url: 'https://example.com/x', weight: 1 }, { url: 'https://example.com/y', weight: 1 }] });
    assert.deepEqual(both.routes, [{ language: ['de'], url: 'https://example.com/de' }], 'the routes stay when only the variants change');
    assert.equal(await follow(link.shortCode, { 'accept-language': 'de' }), 'https://example.com/de');
    const noRoutes = await patch({ routes: null });
    assert.deepEqual(noRoutes.routes, []);
    assert.equal(noRoutes.variants.length, 2);
    await patch({ variants: [] });
    assert.equal((await linkRow(t.deps, link.id)).options, null, 'a link without options is plain again');
    assert.equal((await t.app.inject({ url: `/${link.shortCode}` })).statusCode, 301);
  });

  test('the workspace API v1 takes and answers them', async () => {
    const teamId = await createWorkspace(t.app, token);
    const created = await t.app.inject({
      method: 'POST', url: `/api/v1/workspaces/${teamId}/links`, headers: bearer(token),
      payload: { original_url: 'https://example.com/v1', routes: [{ device: ['android'], url: 'https://example.com/v1-android' }] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const code = created.json().short_code as string;
    assert.equal(await follow(code, { 'user-agent': ANDROID }), 'https://example.com/v1-android');
    const changed = await t.app.inject({
      method: 'PATCH', url: `/api/v1/workspaces/${teamId}/links/${code}`, headers: bearer(token),
      payload: { variants: [{ url: 'https://example.com/p', weight: 1 }, { url: 'https://example.com/q', weight: 2 }] },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(changed.json().variants, [{ url: 'https://example.com/p', weight: 1 }, { url: 'https://example.com/q', weight: 2 }]);
    assert.equal(changed.json().routes.length, 1);
  });

  test('bad input is a 400 naming the field, and nothing is stored or changed', async () => {
    const before = await allLinkRows(t.deps);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ routes: [{ device: ['ios'], url: 'https://example.com/' }, { url: 'https://example.com/' }] }, 'routes_invalid', 'routes[1]'],
      [{ routes: [{ country: ['XX'], url: 'https://example.com/' }] }, 'routes_invalid', 'routes[0].country[0]'],
      [{ routes: [{ device: ['ios'], url: 'https://example.com/' }, { device: ['ios'], url: 'http://192.168.1.1/admin' }] }, 'url_private_address_not_allowed', 'routes[1].url'],
      [{ variants: [{ url: 'https://example.com/a', weight: 1 }] }, 'variants_invalid', 'variants'],
      [{ variants: [{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 0 }] }, 'variants_invalid', 'variants[1].weight'],
      [{ variants: [{ url: 'https://example.com/a', weight: 1 }, { url: 'javascript:alert(1)', weight: 1 }] }, 'url_scheme_not_allowed', 'variants[1].url'],
    ];
    for (const [fields, code, field] of cases) {
      const response = await t.app.inject({ method: 'POST', url: '/api/urls', headers: bearer(token), payload: { url: 'https://example.com/refused', ...fields } });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, code, response.body);
      assert.ok(response.json().detail.startsWith(`${field}:`), response.body);
    }
    const link = await createLink(t.app, token, { url: 'https://example.com/kept', routes: [{ device: ['ios'], url: 'https://example.com/ios' }] });
    const kept = await allLinkRows(t.deps);
    for (const [fields] of cases) {
      const response = await t.app.inject({ method: 'PATCH', url: `/api/urls/${link.id}`, headers: bearer(token), payload: fields });
      assert.equal(response.statusCode, 400, response.body);
    }
    const shape = await t.app.inject({ method: 'PATCH', url: `/api/urls/${link.id}`, headers: bearer(token), payload: { routes: [{ device: ['ios'] }] } });
    assert.equal(shape.statusCode, 400);
    assert.match(shape.json().detail, /routes\.0/);
    assert.deepEqual(await allLinkRows(t.deps), kept);
    assert.equal(kept.length, before.length + 1);
  });
});

describe('what routes and variants believe of the client', () => {
  const routedLink = async (t: TestApp) => {
    const { token } = await registerUser(t.app);
    return createLink(t.app, token, {
      url: 'https://example.com/home',
      routes: [{ country: ['NL'], url: 'https://example.com/nl' }],
      variants: [{ url: 'https://example.com/x', weight: 1 }, { url: 'https://example.com/y', weight: 1 }],
    });
  };
  const locationOf = async (t: TestApp, code: string, headers: Record<string, string>) =>
    (await t.app.inject({ url: `/${code}`, headers: { 'user-agent': HUMAN_UA, ...headers } })).headers.location as string;

  test('X-Forwarded-For from a proxy that is not trusted does not choose a country', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '0' });
    const link = await routedLink(t);
    assert.match(await locationOf(t, link.shortCode, { 'x-forwarded-for': NL }), /^https:\/\/example\.com\/[xy]$/);
  });

  test('under ANALYTICS_PRIVACY=strict a route still sees the country, and each request draws its variant anew', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '0', RATE_LIMIT_REDIRECTS: '0', TRUST_PROXY: 'loopback', ANALYTICS_PRIVACY: 'strict' });
    const link = await routedLink(t);
    assert.equal(await locationOf(t, link.shortCode, { 'x-forwarded-for': NL }), 'https://example.com/nl');
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) seen.add(await locationOf(t, link.shortCode, { 'x-forwarded-for': GB }));
    assert.deepEqual([...seen].sort(), ['https://example.com/x', 'https://example.com/y']);
  });
});
