import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ROUTE_DEVICES, type LinkOptions, type LinkRoute } from '../../src/core/link-options.js';
import { chooseDestination, drawOfVisitor, routeMatches, type RoutingVisitor } from '../../src/core/link-routing.js';
import { seededRandom } from '../../bench/support/seeded-random.js';

const LINK = 'https://example.com/link';
const COUNTRIES = ['DE', 'AT', 'CH', 'FR', 'US'];
const LANGUAGES = ['de', 'en', 'fr', 'pt'];

const visitorArb: fc.Arbitrary<RoutingVisitor> = fc.record({
  country: fc.option(fc.constantFrom(...COUNTRIES), { nil: undefined }),
  devices: fc.subarray([...ROUTE_DEVICES]),
  languages: fc.subarray(LANGUAGES),
});

const routeArb: fc.Arbitrary<LinkRoute> = fc.record({
  country: fc.option(fc.subarray(COUNTRIES, { minLength: 1 }), { nil: undefined }),
  device: fc.option(fc.subarray([...ROUTE_DEVICES], { minLength: 1 }), { nil: undefined }),
  language: fc.option(fc.subarray(LANGUAGES, { minLength: 1 }), { nil: undefined }),
  url: fc.webUrl(),
}).map((route) => Object.fromEntries(Object.entries(route).filter(([, value]) => value !== undefined)) as unknown as LinkRoute);

const weightsArb = fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 2, maxLength: 6 });
const variantsOf = (weights: readonly number[]) => weights.map((weight, index) => ({ url: `https://example.com/v${index}`, weight }));

function assertShares(counts: readonly number[], weights: readonly number[], draws: number): void {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  counts.forEach((count, index) => {
    const expected = weights[index]! / total;
    assert.ok(Math.abs(count / draws - expected) < 0.02, `variant ${index}: ${count / draws} against ${expected}`);
  });
}

describe('chooseDestination (ADR 0031)', () => {
  test('the first matching route wins, whatever comes after it', () => {
    fc.assert(fc.property(fc.array(routeArb, { maxLength: 6 }), visitorArb, fc.double({ min: 0, max: 1, maxExcluded: true }), (routes, visitor, draw) => {
      const chosen = chooseDestination(LINK, { routes, variants: variantsOf([1, 1]) }, visitor, draw);
      const first = routes.findIndex((route) => routeMatches(route, visitor));
      if (first === -1) assert.match(chosen.served, /^variant:/);
      else assert.deepEqual(chosen, { url: routes[first]!.url, served: `route:${first}` });
    }));
  });

  test('a route matches only when every condition it names matches', () => {
    fc.assert(fc.property(routeArb, visitorArb, (route, visitor) => {
      const expected = (route.country === undefined || (visitor.country !== undefined && route.country.includes(visitor.country)))
        && (route.device === undefined || route.device.some((device) => visitor.devices.includes(device)))
        && (route.language === undefined || route.language.some((language) => visitor.languages.includes(language)));
      assert.equal(routeMatches(route, visitor), expected);
    }));
  });

  test('without a matching route or variants, the link\'s own URL is served', () => {
    fc.assert(fc.property(fc.array(routeArb, { maxLength: 4 }), visitorArb, fc.double({ min: 0, max: 1 }), (routes, visitor, draw) => {
      const unmatched = routes.filter((route) => !routeMatches(route, visitor));
      assert.deepEqual(chooseDestination(LINK, { routes: unmatched }, visitor, draw), { url: LINK, served: 'link' });
    }));
    assert.deepEqual(chooseDestination(LINK, undefined, { devices: [], languages: [] }, 0.5), { url: LINK, served: 'link' });
  });

  test('variants are served in proportion to their weights, within 2 % over 100,000 draws', () => {
    fc.assert(fc.property(weightsArb, fc.integer(), (weights, seed) => {
      const options: LinkOptions = { variants: variantsOf(weights) };
      const next = seededRandom(seed);
      const counts = weights.map(() => 0);
      const draws = 100_000;
      for (let i = 0; i < draws; i++) {
        const { served } = chooseDestination(LINK, options, { devices: [], languages: [] }, next());
        counts[Number(served.slice('variant:'.length))]! += 1;
      }
      assertShares(counts, weights, draws);
    }), { numRuns: 15 });
  });

  test('a draw at either end of [0, 1] still names a variant', () => {
    const options: LinkOptions = { variants: variantsOf([3, 1]) };
    assert.equal(chooseDestination(LINK, options, { devices: [], languages: [] }, 0).served, 'variant:0');
    assert.equal(chooseDestination(LINK, options, { devices: [], languages: [] }, 1).served, 'variant:1');
  });
});

describe('variants by visitor', () => {
  const seed = 0x7e57_5eed;

  test('the same visitor of a link always gets the same variant', () => {
    fc.assert(fc.property(fc.ipV4(), fc.string(), fc.nat(), weightsArb, (address, agent, linkId, weights) => {
      const options: LinkOptions = { variants: variantsOf(weights) };
      const once = chooseDestination(LINK, options, { devices: [], languages: [] }, drawOfVisitor(seed, address, agent, linkId));
      const again = chooseDestination(LINK, options, { devices: [], languages: [] }, drawOfVisitor(seed, address, agent, linkId));
      assert.deepEqual(again, once);
    }));
  });

  test('draws split 100,000 distinct visitors by weight within 2 %', () => {
    const weights = [700, 200, 100];
    const options: LinkOptions = { variants: variantsOf(weights) };
    const counts = weights.map(() => 0);
    const draws = 100_000;
    for (let i = 0; i < draws; i++) {
      const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      const { served } = chooseDestination(LINK, options, { devices: [], languages: [] }, drawOfVisitor(seed, address, 'Mozilla/5.0', 42));
      counts[Number(served.slice('variant:'.length))]! += 1;
    }
    assertShares(counts, weights, draws);
  });

  test('the next day (another seed) draws anew: the same visitors do not keep their numbers', () => {
    const addresses = Array.from({ length: 200 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    const kept = addresses.filter((address) => drawOfVisitor(seed, address, 'agent', 1) === drawOfVisitor(seed + 1, address, 'agent', 1));
    assert.equal(kept.length, 0);
  });

  test('a visitor draws in [0, 1)', () => {
    fc.assert(fc.property(fc.ipV4(), fc.nat(), (address, linkId) => {
      const draw = drawOfVisitor(seed, address, 'agent', linkId);
      assert.ok(draw >= 0 && draw < 1);
    }));
  });
});
