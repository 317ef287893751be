import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { VisitFacts } from '../../src/core/visit-ports.js';
import { batchOfVisits } from '../../src/core/visit-batch.js';
import { rollUp } from '../../src/core/visit-rollups.js';
import { foldedBatch, linkDayKey, linkDaysOf, OTHER_VALUE, rowsThatMayFold, type StoredDayValues } from '../../src/core/breakdown-folding.js';
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

describe('which link days a flush reads before folding', () => {
  test('a link with at most the cap in clicks after the batch is not read; one past it is, and so is a link of unknown count', () => {
    const batch = batchOfVisits([...visits(1, 'a.example'), ...visits(2, 'b.example'), ...visits(2, 'b.example', 1, T0 + DAY), ...visits(3, 'c.example')]);
    const read = linkDaysOf(rowsThatMayFold(rollUp(batch).daily, new Map([[1, 100], [2, 101]]), 100));
    assert.deepEqual(read.map(({ linkId, dayStart }) => [linkId, dayStart]), [[2, T0 - (T0 % DAY)], [2, T0 + DAY - (T0 % DAY)], [3, T0 - (T0 % DAY)]]);
    assert.equal(linkDaysOf(rowsThatMayFold(rollUp(batch).daily, undefined, 100)).length, 4, 'an import knows no counts: every day is read');
  });

  test('flushes that read only those days fold exactly as flushes that read every day', () => {
    const host = fc.integer({ min: 0, max: 9 }).map((n) => `h${n}.example`);
    const flush = fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), host, fc.integer({ min: 0, max: 1 })), { minLength: 1, maxLength: 8 });
    fc.assert(fc.property(fc.array(flush, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 6 }), (flushes, cap) => {
      const stored = new Map<string, Map<'referrer', Set<string>>>();
      const clicks = new Map<number, number>();
      for (const entries of flushes) {
        const batch = batchOfVisits(entries.flatMap(([linkId, referrer, day]) => visits(linkId, referrer, 1, T0 + day * DAY)));
        for (const [linkId] of entries) clicks.set(linkId, (clicks.get(linkId) ?? 0) + 1);
        const daily = rollUp(batch).daily;
        const mayFold = rowsThatMayFold(daily, clicks, cap);
        const gated = new Map([...stored].filter(([key]) => linkDaysOf(mayFold).some((d) => linkDayKey(d.linkId, d.dayStart) === key)));
        const all = foldedBatch(batch, daily, stored as Map<string, StoredDayValues>, cap);
        const some = foldedBatch(batch, mayFold, gated as Map<string, StoredDayValues>, cap);
        assert.deepEqual(Array.from(some.factsIndex, (i) => some.facts[i]!.referrerHost), Array.from(all.factsIndex, (i) => all.facts[i]!.referrerHost));
        for (const row of rollUp(all).daily.filter((r) => r.dimension === 'referrer')) {
          const key = linkDayKey(row.linkId, row.dayStart);
          if (!stored.has(key)) stored.set(key, new Map([['referrer', new Set()]]));
          stored.get(key)!.get('referrer')!.add(row.value);
        }
      }
    }));
  });
});
