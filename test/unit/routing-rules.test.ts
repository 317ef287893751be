import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBlocklist, type UrlPolicy } from '../../src/core/canonical-url.js';
import { ValidationError } from '../../src/core/errors.js';
import { parseRoutes, parseVariants } from '../../src/core/routing-rules.js';

const policy: UrlPolicy = { maxLength: 4096, shortHosts: ['lnk.example'], allowPrivate: false, blockedDomains: parseBlocklist('evil.com\n') };

function refusal(run: () => unknown): { code: string; field: unknown } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ValidationError, String(error));
    return { code: error.code, field: error.extra.field };
  }
  assert.fail('expected a refusal');
}

describe('parseRoutes', () => {
  test('upper-cases countries, lower-cases languages and devices, and drops repeats', () => {
    assert.deepEqual(parseRoutes([{ country: ['de', 'AT', 'De'], device: ['IOS'], language: ['PT'], url: 'https://example.com/x' }], policy),
      [{ country: ['DE', 'AT'], device: ['ios'], language: ['pt'], url: 'https://example.com/x' }]);
  });

  test('null and an empty list are no routes; absent is no change', () => {
    assert.equal(parseRoutes(null, policy), null);
    assert.equal(parseRoutes([], policy), null);
    assert.equal(parseRoutes(undefined, policy), undefined);
  });

  test('each broken rule is refused with the field named', () => {
    const url = 'https://example.com/';
    const cases: Array<[unknown, string, string]> = [
      [{}, 'routes_invalid', 'routes'],
      [[{ url }], 'routes_invalid', 'routes[0]'],
      [[{ country: ['DE'], url }, { country: ['XX'], url }], 'routes_invalid', 'routes[1].country[0]'],
      [[{ country: ['DEU'], url }], 'routes_invalid', 'routes[0].country[0]'],
      [[{ device: ['tablet'], url }], 'routes_invalid', 'routes[0].device[0]'],
      [[{ language: ['deutsch'], url }], 'routes_invalid', 'routes[0].language[0]'],
      [[{ language: [], url }], 'routes_invalid', 'routes[0].language'],
      [[{ country: ['DE'], url, extra: 1 }], 'routes_invalid', 'routes[0].extra'],
      [Array.from({ length: 11 }, () => ({ country: ['DE'], url })), 'routes_invalid', 'routes'],
      [[{ country: ['DE'], url: 'ftp://example.com/' }], 'url_scheme_not_allowed', 'routes[0].url'],
      [[{ country: ['DE'], url }, { device: ['ios'], url: 'http://10.0.0.1/' }], 'url_private_address_not_allowed', 'routes[1].url'],
      [[{ country: ['DE'], url: 'https://sub.evil.com/' }], 'url_domain_blocked', 'routes[0].url'],
      [[{ country: ['DE'], url: 'https://lnk.example/abc' }], 'url_loop_not_allowed', 'routes[0].url'],
      [[{ country: ['DE'], url: 42 }], 'url_invalid', 'routes[0].url'],
    ];
    for (const [raw, code, field] of cases) assert.deepEqual(refusal(() => parseRoutes(raw, policy)), { code, field }, JSON.stringify(raw));
  });

  test('ten routes are accepted', () => {
    assert.equal(parseRoutes(Array.from({ length: 10 }, () => ({ device: ['desktop'], url: 'https://example.com/' })), policy)?.length, 10);
  });
});

describe('parseVariants', () => {
  test('keeps URL and weight', () => {
    assert.deepEqual(parseVariants([{ url: 'https://a.example/', weight: 1 }, { url: 'https://b.example/', weight: 1000 }], policy),
      [{ url: 'https://a.example/', weight: 1 }, { url: 'https://b.example/', weight: 1000 }]);
  });

  test('each broken rule is refused with the field named', () => {
    const ok = { url: 'https://a.example/', weight: 1 };
    const cases: Array<[unknown, string, string]> = [
      [[ok], 'variants_invalid', 'variants'],
      [Array.from({ length: 11 }, () => ok), 'variants_invalid', 'variants'],
      [[ok, { url: 'https://b.example/', weight: 0 }], 'variants_invalid', 'variants[1].weight'],
      [[ok, { url: 'https://b.example/', weight: 1.5 }], 'variants_invalid', 'variants[1].weight'],
      [[ok, { url: 'https://b.example/', weight: 1001 }], 'variants_invalid', 'variants[1].weight'],
      [[ok, { url: 'https://b.example/' }], 'variants_invalid', 'variants[1].weight'],
      [[ok, { url: 'http://127.0.0.1/', weight: 1 }], 'url_private_address_not_allowed', 'variants[1].url'],
      [[ok, 'https://b.example/'], 'variants_invalid', 'variants[1]'],
    ];
    for (const [raw, code, field] of cases) assert.deepEqual(refusal(() => parseVariants(raw, policy)), { code, field }, JSON.stringify(raw));
  });
});
