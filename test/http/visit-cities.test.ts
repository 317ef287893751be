import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OTHER_VALUE } from '../../src/core/breakdown-folding.js';
import { CITY_ADDRESSES as AT, cityRecord, writeTestCityDatabase } from '../support/city-database.js';
import { visitNewLink as visitLink, type ProxiedVisit } from '../support/proxied-visits.js';
import { createTestApp } from '../support/test-app.js';
import { bearer } from '../support/users.js';

const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

async function statsOf(t: TestApp, visits: readonly ProxiedVisit[]) {
  const { owner, link } = await visitLink(t, visits);
  const stats = await t.app.inject({ url: `/api/urls/${link.id}/stats`, headers: bearer(owner.token) });
  assert.equal(stats.statusCode, 200, stats.body);
  return stats.json();
}

const counts = (people: number, bots = 0) => ({ people, bots, previews: 0, total: people + bots });

describe('the region and city of a visit, with a City database given as GEOIP_DATABASE', () => {
  test('through a trusted proxy each visit lands in its country and city; the same name in two regions is two cities; both stats routes answer them', async (context) => {
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback', GEOIP_DATABASE: writeTestCityDatabase(context) });
    const { owner, link } = await visitLink(t, [
      { forwardedFor: AT.london }, { forwardedFor: `198.51.100.1, ${AT.london}` }, { forwardedFor: AT.berlin, userAgent: BOT_UA },
      { forwardedFor: AT.springfieldIllinois }, { forwardedFor: AT.springfieldMissouri }, { forwardedFor: AT.netherlands },
      { forwardedFor: AT.london, headers: { dnt: '1' } }, { forwardedFor: AT.berlin, headers: { 'sec-gpc': '1' } }, { forwardedFor: '10.0.0.1' },
    ]);
    const expectedCities = [
      { country: 'GB', name: 'United Kingdom', region: 'England', city: 'London', ...counts(2) },
      { country: 'DE', name: 'Germany', region: 'Berlin', city: 'Berlin', ...counts(0, 1) },
      { country: 'US', name: 'United States', region: 'Illinois', city: 'Springfield', ...counts(1) },
      { country: 'US', name: 'United States', region: 'Missouri', city: 'Springfield', ...counts(1) },
    ];
    const stats = await t.app.inject({ url: `/api/urls/${link.id}/stats`, headers: bearer(owner.token) });
    assert.equal(stats.statusCode, 200, stats.body);
    assert.deepEqual(stats.json().cities, expectedCities, 'a visit without a city (DNT, Sec-GPC, a private address, a country-only record) is in no city');
    assert.deepEqual(stats.json().countries, [
      { country: null, name: 'Unknown', ...counts(3) },
      { country: 'GB', name: 'United Kingdom', ...counts(2) },
      { country: 'US', name: 'United States', ...counts(2) },
      { country: 'DE', name: 'Germany', ...counts(0, 1) },
      { country: 'NL', name: 'Netherlands', ...counts(1) },
    ]);
    const workspace = await t.app.inject({ url: `/api/v1/workspaces/${owner.personalWorkspaceId}/links/${link.shortCode}/stats`, headers: bearer(owner.token) });
    assert.equal(workspace.statusCode, 200, workspace.body);
    assert.deepEqual(workspace.json().cities, expectedCities);
  });

  test('each visit\'s facts hold its region and city, and no address; the visits CSV carries the city', async (context) => {
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback', GEOIP_DATABASE: writeTestCityDatabase(context) });
    await visitLink(t, [{ forwardedFor: AT.london }, { forwardedFor: AT.netherlands }]);
    const { owner, link } = await visitLink(t, [{ forwardedFor: AT.berlin }]);
    const csv = await t.app.inject({ url: `/api/urls/${link.id}/visits.csv`, headers: bearer(owner.token) });
    assert.equal(csv.statusCode, 200, csv.body);
    const [header, row] = csv.body.trim().split('\r\n');
    assert.deepEqual(row!.split(',').slice(1, 4), ['human', 'DE', 'Berlin'], `${header}\n${row}: the CSV carries the city`);
    const facts = await t.deps.database.db.selectFrom('visit_facts').select(['country', 'region', 'city']).orderBy('country').execute();
    assert.deepEqual(facts, [{ country: 'DE', region: 'Berlin', city: 'Berlin' }, { country: 'GB', region: 'England', city: 'London' }, { country: 'NL', region: null, city: null }]);
    const daily = await t.deps.database.db.selectFrom('link_breakdown_daily').selectAll().execute();
    const text = JSON.stringify(daily);
    for (const address of [AT.london, AT.netherlands]) assert.ok(!text.includes(address), `${address} is in a row`);
  });

  test('past 100 cities of one link and day, the rest fold into (other); the countries still count every visit', async (context) => {
    const towns = Object.fromEntries(Array.from({ length: 105 }, (_, i) => [`81.3.${i}.0/24`, cityRecord('FR', 'Brittany', `Town ${String(i).padStart(3, '0')}`)]));
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback', GEOIP_DATABASE: writeTestCityDatabase(context, towns) });
    const visits = Array.from({ length: 105 }, (_, i) => ({ forwardedFor: `81.3.${i}.9` }));
    const stats = await statsOf(t, [...visits, { forwardedFor: '81.3.50.7' }, { forwardedFor: '81.3.50.8' }]);
    assert.equal(stats.cities.length, 10);
    assert.deepEqual(stats.cities[0], { country: OTHER_VALUE, name: 'Other cities', city: OTHER_VALUE, ...counts(5) });
    assert.deepEqual(stats.cities[1], { country: 'FR', name: 'France', region: 'Brittany', city: 'Town 050', ...counts(3) });
    assert.deepEqual(stats.cities[2], { country: 'FR', name: 'France', region: 'Brittany', city: 'Town 000', ...counts(1) });
    assert.deepEqual(stats.countries, [{ country: 'FR', name: 'France', ...counts(107) }]);
  });

  test('without a City database, and under ANALYTICS_PRIVACY=strict, there are no cities', async (context) => {
    const bundled = await statsOf(await createTestApp(context, { TRUST_PROXY: 'loopback' }), [{ forwardedFor: AT.london }]);
    assert.deepEqual(bundled.cities, []);
    assert.deepEqual(bundled.countries, [{ country: 'GB', name: 'United Kingdom', ...counts(1) }], 'the bundled country database still answers');
    const strict = await createTestApp(context, { TRUST_PROXY: 'loopback', ANALYTICS_PRIVACY: 'strict', GEOIP_DATABASE: writeTestCityDatabase(context) });
    const stats = await statsOf(strict, [{ forwardedFor: AT.london }, { forwardedFor: AT.springfieldIllinois }]);
    assert.deepEqual(stats.cities, []);
    assert.deepEqual(stats.countries, [{ country: null, name: 'Unknown', ...counts(2) }]);
  });
});
