import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { VisitFacts } from '../../src/core/visit-ports.js';
import { batchOfVisits } from '../../src/core/visit-batch.js';
import { rollUp } from '../../src/core/visit-rollups.js';
import { foldedBatch, linkDayKey, OTHER_VALUE, type StoredDayValues } from '../../src/core/breakdown-folding.js';
import { cityOfValue } from '../../src/core/breakdown-values.js';

const DAY = 86_400_000;
const T0 = 20_000 * DAY + 3_600_000;
const facts = (referrerHost: string | null, browser: string | null = 'Firefox'): VisitFacts => ({ visitorClass: 'human', referrerHost, browser, os: 'Linux', device: 'desktop' });
const visits = (linkId: number, referrerHost: string | null, count = 1, visitedAt = T0) =>
  Array.from({ length: count }, () => ({ ...facts(referrerHost), linkId, visitedAt, latencyMs: 1 }));

/** Each visit's referrer host after folding, in batch order. */
function foldedHosts(list: ReturnType<typeof visits>, stored = new Map<string, StoredDayValues>(), cap = 2): (string | null)[] {
  const batch = batchOfVisits(list);
  const folded = foldedBatch(batch, rollUp(batch).daily, stored, cap);
  return Array.from(folded.factsIndex, (index) => folded.facts[index]!.referrerHost);
}

describe('folding breakdown values past a link day\'s cap', () => {
  test('a batch within the cap is answered as it is, with no new facts', () => {
    const batch = batchOfVisits([...visits(1, 'a.example'), ...visits(1, 'b.example'), ...visits(2, 'c.example')]);
    assert.equal(foldedBatch(batch, rollUp(batch).daily, new Map(), 2), batch);
  });

  test('new values take the room left most clicked first; the rest fold; unknown values never count', () => {
    const hosts = foldedHosts([...visits(1, 'few.example'), ...visits(1, 'many.example', 3), ...visits(1, 'some.example', 2), ...visits(1, null)]);
    assert.deepEqual(hosts, [OTHER_VALUE, 'many.example', 'many.example', 'many.example', 'some.example', 'some.example', null]);
  });

  test('values the day holds never fold and fill the cap; (other) does not count as one of them', () => {
    const stored = new Map([[linkDayKey(1, T0 - (T0 % DAY)), new Map([['referrer', new Set(['old.example', OTHER_VALUE])]])]]) as Map<string, StoredDayValues>;
    assert.deepEqual(foldedHosts([...visits(1, 'old.example'), ...visits(1, 'new.example', 2), ...visits(1, 'newer.example')], stored),
      ['old.example', 'new.example', 'new.example', OTHER_VALUE]);
  });

  test('each link and each UTC day has its own room', () => {
    const hosts = foldedHosts([...visits(1, 'a.example'), ...visits(1, 'b.example'), ...visits(1, 'c.example', 1, T0 + DAY), ...visits(2, 'c.example')], new Map(), 1);
    assert.deepEqual(hosts, ['a.example', OTHER_VALUE, 'c.example', 'c.example']);
  });

  test('only the dimension past its cap folds in a visit\'s facts; the rest of them stay', () => {
    const list = [...visits(1, 'a.example'), { ...facts('b.example', 'Chrome'), linkId: 1, visitedAt: T0, latencyMs: 1 }, ...visits(1, 'c.example')];
    const batch = batchOfVisits(list);
    const folded = foldedBatch(batch, rollUp(batch).daily, new Map(), 2);
    const facts2 = Array.from(folded.factsIndex, (index) => folded.facts[index]!);
    assert.deepEqual(facts2.map((f) => [f.referrerHost, f.browser]), [['a.example', 'Firefox'], ['b.example', 'Chrome'], [OTHER_VALUE, 'Firefox']]);
    assert.deepEqual(rollUp(folded).daily.filter((row) => row.dimension === 'referrer').map((row) => [row.value, row.clicks]),
      [['a.example', 1], ['b.example', 1], [OTHER_VALUE, 1]]);
  });
});

describe('cities in the daily breakdown', () => {
  const cityVisit = (city: string | null, region: string | null = 'Bavaria', country = 'DE', count = 1) =>
    Array.from({ length: count }, () => ({ ...facts('a.example'), country, region, city, linkId: 1, visitedAt: T0, latencyMs: 1 }));

  test('a city is one value of country, region and city: the same name in two regions is two cities; no city, no row', () => {
    const batch = batchOfVisits([...cityVisit('Springfield', 'Illinois', 'US', 2), ...cityVisit('Springfield', 'Missouri', 'US'), ...cityVisit(null)]);
    const cities = rollUp(batch).daily.filter((row) => row.dimension === 'city');
    assert.deepEqual(cities.map((row) => [cityOfValue(row.value), row.clicks]), [
      [{ country: 'US', region: 'Illinois', city: 'Springfield' }, 2],
      [{ country: 'US', region: 'Missouri', city: 'Springfield' }, 1],
    ]);
    assert.deepEqual(cityOfValue(rollUp(batchOfVisits(cityVisit('Lyon', null, 'FR'))).daily.find((row) => row.dimension === 'city')!.value),
      { country: 'FR', region: null, city: 'Lyon' }, 'a city without a region');
  });

  test('cities past the cap fold into (other), most clicked kept; the folded visit keeps its country and region', () => {
    const batch = batchOfVisits([...cityVisit('Munich', 'Bavaria', 'DE', 3), ...cityVisit('Nuremberg', 'Bavaria', 'DE', 2), ...cityVisit('Augsburg')]);
    const folded = foldedBatch(batch, rollUp(batch).daily, new Map(), 2);
    const places = Array.from(folded.factsIndex, (index) => folded.facts[index]!).map((f) => [f.country, f.region, f.city]);
    assert.deepEqual(places.at(-1), ['DE', 'Bavaria', OTHER_VALUE]);
    const cities = rollUp(folded).daily.filter((row) => row.dimension === 'city').map((row) => [cityOfValue(row.value)?.city ?? row.value, row.clicks]);
    assert.deepEqual(cities, [['Munich', 3], ['Nuremberg', 2], [OTHER_VALUE, 1]]);
    const countries = rollUp(folded).daily.filter((row) => row.dimension === 'country').map((row) => [row.value, row.clicks]);
    assert.deepEqual(countries, [['DE', 6]], 'the country counts every visit still');
  });
});
