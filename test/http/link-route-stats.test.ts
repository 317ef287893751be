import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink } from '../support/owned-links.js';
import { HUMAN_UA } from '../support/proxied-visits.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { suiteScope } from '../support/teardown.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const counts = (people: number, bots = 0) => ({ people, bots, previews: 0, total: people + bots });

describe('link stats by destination: the route or variant that served each click (ADR 0031)', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', RATE_LIMIT_REDIRECTS: '0', TRUST_PROXY: 'loopback' });
    owner = await registerUser(t.app);
  });

  const follow = async (code: string, headers: Record<string, string>) => {
    const response = await t.app.inject({ url: `/${code}`, headers: { 'user-agent': HUMAN_UA, ...headers } });
    assert.ok([301, 302].includes(response.statusCode), response.body);
    return response.headers.location as string;
  };
  const flush = () => (t.deps.analytics ?? assert.fail('analytics are on by default')).flusher.flushNow();
  const statsOf = async (url: string) => {
    const response = await t.app.inject({ url, headers: bearer(owner.token) });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };

  test('clicks of each route and variant are counted apart, people and bots, on both stats routes; a gone variant has no URL', async () => {
    const link = await createLink(t.app, owner.token, {
      url: 'https://example.com/home',
      routes: [{ device: ['ios'], url: 'https://example.com/ios' }, { language: ['de'], url: 'https://example.com/de' }],
      variants: [{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 1 }],
    });
    assert.equal(await follow(link.shortCode, { 'user-agent': IPHONE }), 'https://example.com/ios');
    assert.equal(await follow(link.shortCode, { 'user-agent': IPHONE, 'accept-language': 'de' }), 'https://example.com/ios', 'the first matching route wins');
    assert.equal(await follow(link.shortCode, { 'accept-language': 'de-DE' }), 'https://example.com/de');
    assert.equal(await follow(link.shortCode, { 'user-agent': BOT_UA, 'accept-language': 'de' }), 'https://example.com/de');
    // Each address draws its variant; distinct addresses until both have been served, each counted.
    const byVariant: Record<string, number> = { 'https://example.com/a': 0, 'https://example.com/b': 0 };
    for (let i = 0; i < 200 && (byVariant['https://example.com/a'] === 0 || byVariant['https://example.com/b'] === 0); i++) {
      byVariant[await follow(link.shortCode, { 'x-forwarded-for': `203.0.113.${i}` })]! += 1;
    }
    assert.ok(byVariant['https://example.com/a']! > 0 && byVariant['https://example.com/b']! > 0, JSON.stringify(byVariant));
    await flush();

    const expected = [
      { served: 'route:0', url: 'https://example.com/ios', ...counts(2) },
      { served: 'route:1', url: 'https://example.com/de', ...counts(1, 1) },
      { served: 'variant:0', url: 'https://example.com/a', ...counts(byVariant['https://example.com/a']!) },
      { served: 'variant:1', url: 'https://example.com/b', ...counts(byVariant['https://example.com/b']!) },
    ];
    const byClicks = (list: { total: number; served: string }[]) => [...list].sort((x, y) => y.total - x.total || (x.served < y.served ? -1 : 1));
    const stats = await statsOf(`/api/urls/${link.id}/stats`);
    assert.deepEqual(stats.destinations, byClicks(expected));
    assert.equal(stats.totals.total, 4 + byVariant['https://example.com/a']! + byVariant['https://example.com/b']!);
    const workspace = await statsOf(`/api/v1/workspaces/${owner.personalWorkspaceId}/links/${link.shortCode}/stats`);
    assert.deepEqual(workspace.destinations, byClicks(expected));

    const csv = await t.app.inject({ url: `/api/urls/${link.id}/visits.csv`, headers: bearer(owner.token) });
    assert.equal(csv.statusCode, 200, csv.body);
    const [header, ...rows] = csv.body.trim().split('\r\n');
    assert.equal(header!.split(',').at(-1), 'destination');
    assert.deepEqual(rows.slice(0, 4).map((row) => row.split(',').at(-1)), ['route:0', 'route:0', 'route:1', 'route:1'], 'the visits CSV names what served each visit');

    const patched = await t.app.inject({ method: 'PATCH', url: `/api/urls/${link.id}`, headers: bearer(owner.token), payload: { variants: null } });
    assert.equal(patched.statusCode, 200, patched.body);
    const after = await statsOf(`/api/urls/${link.id}/stats`);
    assert.deepEqual(after.destinations, byClicks(expected.map((entry) => (entry.served.startsWith('variant') ? { ...entry, url: null } : entry))));
  });

  test('a plain link, and a routed link\'s clicks sent to its own URL, have no destinations', async () => {
    const plain = await createLink(t.app, owner.token, { url: 'https://example.com/plain' });
    const routed = await createLink(t.app, owner.token, { url: 'https://example.com/own', routes: [{ device: ['ios'], url: 'https://example.com/ios' }] });
    await follow(plain.shortCode, {});
    assert.equal(await follow(routed.shortCode, {}), 'https://example.com/own');
    await flush();
    const plainStats = await statsOf(`/api/urls/${plain.id}/stats`);
    assert.deepEqual([plainStats.totals.total, plainStats.destinations], [1, []]);
    const routedStats = await statsOf(`/api/urls/${routed.id}/stats`);
    assert.deepEqual([routedStats.totals.total, routedStats.destinations], [1, []]);
  });

  test('the shared stats page lists destinations with their URLs cut to scheme, host and path, as it cuts the link\'s own', async () => {
    const link = await createLink(t.app, owner.token, {
      url: 'https://example.com/shared', routes: [{ device: ['ios'], url: 'https://example.com/ios?token=secret#x' }],
    });
    await follow(link.shortCode, { 'user-agent': IPHONE });
    await flush();
    const made = await t.app.inject({ method: 'POST', url: `/api/urls/${link.id}/share`, headers: bearer(owner.token) });
    assert.equal(made.statusCode, 201, made.body);
    const shared = await t.app.inject({ url: `/api/shared/${made.json().token}/stats` });
    assert.equal(shared.statusCode, 200, shared.body);
    assert.deepEqual(shared.json().destinations, [{ served: 'route:0', url: 'https://example.com/ios', ...counts(1) }]);
  });
});
