import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { acceptedLanguages, routeDevicesOf } from '../../src/core/visitor-traits.js';

const AGENTS = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  androidPhone: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  androidTablet: 'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  windowsChrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
};

describe('routeDevicesOf', () => {
  test('an iPhone and an iPad are ios and mobile (a tablet counts as mobile)', () => {
    assert.deepEqual(routeDevicesOf(AGENTS.iphone), ['ios', 'mobile']);
    assert.deepEqual(routeDevicesOf(AGENTS.ipad), ['ios', 'mobile']);
  });

  test('an Android phone and an Android tablet are android and mobile', () => {
    assert.deepEqual(routeDevicesOf(AGENTS.androidPhone), ['android', 'mobile']);
    assert.deepEqual(routeDevicesOf(AGENTS.androidTablet), ['android', 'mobile']);
  });

  test('desktop browsers are desktop', () => {
    for (const agent of [AGENTS.windowsChrome, AGENTS.macSafari, AGENTS.linuxFirefox]) assert.deepEqual(routeDevicesOf(agent), ['desktop']);
  });

  test('no User-Agent at all is desktop', () => {
    assert.deepEqual(routeDevicesOf(undefined), ['desktop']);
    assert.deepEqual(routeDevicesOf(''), ['desktop']);
  });

  test('never throws and always names at least one family', () => {
    fc.assert(fc.property(fc.string({ maxLength: 2000 }), (agent) => {
      assert.ok(routeDevicesOf(agent).length > 0);
    }));
  });
});

describe('acceptedLanguages', () => {
  test('orders by q-value, then by the order given', () => {
    assert.deepEqual(acceptedLanguages('fr;q=0.5, de-CH, en;q=0.8, it;q=0.8'), ['de', 'en', 'it', 'fr']);
  });

  test('keeps the primary subtag in lower case, once', () => {
    assert.deepEqual(acceptedLanguages('DE-at, de-DE;q=0.9, pt-BR;q=0.5'), ['de', 'pt']);
  });

  test('ignores *, q=0 and what is not a language', () => {
    assert.deepEqual(acceptedLanguages('*, en;q=0, 12, x-pig-latin, es;q=0.3'), ['es']);
  });

  test('no header means no languages', () => {
    assert.deepEqual(acceptedLanguages(undefined), []);
    assert.deepEqual(acceptedLanguages(''), []);
  });

  test('never throws, and answers only 2–3 letter lower-case subtags', () => {
    fc.assert(fc.property(fc.string({ maxLength: 500 }), (header) => {
      for (const language of acceptedLanguages(header)) assert.match(language, /^[a-z]{2,3}$/);
    }));
  });
});
