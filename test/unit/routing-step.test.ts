import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { withOption, type LinkOptions } from '../../src/core/link-options.js';
import { extrasVisitOf, type ExtrasTarget } from '../../src/http/link-extras.js';
import { routingStep } from '../../src/http/routing-step.js';

const NOW = 1_800_000_000_000;
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const request = (headers: Record<string, string> = {}) => ({ method: 'GET', headers, socket: {} }) as unknown as IncomingMessage;
const target = (options: LinkOptions, fields: Partial<ExtrasTarget> = {}): ExtrasTarget => ({
  url: 'https://example.com/link', expiresAt: null, status: 'ACTIVE', linkId: 7, permanent: true, extras: { options }, ...fields,
});
const VARIANTS = [{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 1 }];

describe('the routing step pays only for what a link asks', () => {
  test('no country lookup for routes that name none, and none at all for a link without routes or variants', () => {
    let lookups = 0;
    const step = routingStep({ countryOf: () => { lookups += 1; return 'DE'; } });
    const visit = extrasVisitOf(request({ 'user-agent': IPHONE }), target({ routes: [{ device: ['ios'], url: 'https://example.com/ios' }] }), NOW);
    assert.equal(step(visit), undefined);
    assert.equal(visit.url, 'https://example.com/ios');
    assert.equal(step(extrasVisitOf(request(), target({ confirmBeforeRedirect: true }), NOW)), undefined);
    assert.equal(lookups, 0);
    const byCountry = extrasVisitOf(request(), target({ routes: [{ country: ['DE'], url: 'https://example.com/de' }] }), NOW);
    step(byCountry);
    assert.deepEqual([lookups, byCountry.url], [1, 'https://example.com/de']);
  });

  test('the day\'s salt is awaited once; later visits that day choose synchronously, and the same visitor gets the same variant', async () => {
    let salts = 0;
    const step = routingStep({ visitorAddress: () => '203.0.113.9', saltOf: async () => { salts += 1; return Buffer.alloc(32, 1); } });
    const first = extrasVisitOf(request(), target({ variants: VARIANTS }), NOW);
    const pending = step(first);
    assert.ok(pending instanceof Promise);
    await pending;
    const again = extrasVisitOf(request(), target({ variants: VARIANTS }), NOW + 1000);
    assert.equal(step(again), undefined, 'no promise: the salt is at hand');
    assert.equal(again.url, first.url);
    assert.equal(salts, 1);
  });

  test('without a visitor id each visit draws by chance', () => {
    const draws = [0.1, 0.9];
    const step = routingStep({ random: () => draws.shift()! });
    const urls = [0, 1].map(() => {
      const visit = extrasVisitOf(request(), target({ variants: VARIANTS }), NOW);
      step(visit);
      return visit.url;
    });
    assert.deepEqual(urls, ['https://example.com/a', 'https://example.com/b']);
  });

  test('a link that does not redirect (gone, disabled) keeps its URL', () => {
    const visit = extrasVisitOf(request({ 'user-agent': IPHONE }), target({ routes: [{ device: ['ios'], url: 'https://example.com/ios' }] }, { expiresAt: NOW - 1 }), NOW);
    assert.equal(routingStep({})(visit), undefined);
    assert.equal(visit.url, 'https://example.com/link');
  });
});

describe('withOption', () => {
  test('sets one key and keeps the others; null, undefined or [] removes it; nothing left is null', () => {
    const options: LinkOptions = { confirmBeforeRedirect: true, variants: VARIANTS };
    assert.deepEqual(withOption(options, 'routes', [{ language: ['de'], url: 'https://example.com/de' }]),
      { confirmBeforeRedirect: true, variants: VARIANTS, routes: [{ language: ['de'], url: 'https://example.com/de' }] });
    assert.deepEqual(withOption(options, 'variants', []), { confirmBeforeRedirect: true });
    assert.deepEqual(withOption(options, 'variants', null), { confirmBeforeRedirect: true });
    assert.equal(withOption({ variants: VARIANTS }, 'variants', undefined), null);
    assert.equal(withOption(null, 'routes', []), null);
    assert.deepEqual(options, { confirmBeforeRedirect: true, variants: VARIANTS }, 'the given options are not changed');
  });
});
