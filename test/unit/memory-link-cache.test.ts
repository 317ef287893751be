import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheEntryBytes } from '../../src/cache/cache-entry-bytes.js';
import { MemoryLinkCache } from '../../src/cache/memory-link-cache.js';
import type { RedirectTarget } from '../../src/core/link.js';
import { systemClock } from '../../src/core/ports.js';

const HOUR = 3_600_000;
const cacheOf = (maxEntries: number, maxBytes: number) => new MemoryLinkCache({ maxEntries, maxBytes, linkTtlMs: HOUR, tombstoneTtlMs: HOUR, negativeTtlMs: HOUR, clock: systemClock });
const target = (linkId: number, url: string, more: Partial<RedirectTarget> = {}): RedirectTarget => ({ url, expiresAt: null, status: 'ACTIVE', linkId, permanent: true, ...more });

describe('the in-process link cache, bounded in entries and in bytes', () => {
  test('short URLs: the count is the bound', () => {
    const cache = cacheOf(10, 1024 * 1024);
    for (let i = 0; i < 50; i++) cache.remember('lnk.test', `c${i}`, target(i, `https://example.com/${i}`), Date.now());
    assert.equal(cache.size, 10);
    assert.equal(cache.get('lnk.test', 'c49')?.linkId, 49);
    assert.equal(cache.get('lnk.test', 'c0'), undefined);
  });

  test('long URLs: the bytes are the bound, and the least recently used go first', () => {
    const cache = cacheOf(1000, 100 * 1024);
    const long = (i: number) => `https://example.com/${i}/${'p'.repeat(10_000)}`;
    for (let i = 0; i < 40; i++) cache.remember('lnk.test', `c${i}`, target(i, long(i)), Date.now());
    assert.equal(cache.size, 9, 'nine URLs of 10,000 characters and their overhead fit in 100 KiB, not ten');
    assert.equal(cache.get('lnk.test', 'c39')?.linkId, 39);
    assert.equal(cache.get('lnk.test', 'c30'), undefined);
  });

  test('a link larger than the whole bound is not kept, and the others stay', () => {
    const cache = cacheOf(1000, 64 * 1024);
    cache.remember('lnk.test', 'small', target(1, 'https://example.com/'), Date.now());
    const routes = Array.from({ length: 10 }, () => ({ country: ['DE'], url: `https://example.com/${'r'.repeat(4000)}` }));
    cache.remember('lnk.test', 'huge', target(2, 'https://example.com/', { extras: { options: { routes } } }), Date.now());
    assert.equal(cache.get('lnk.test', 'huge'), undefined);
    assert.equal(cache.get('lnk.test', 'small')?.linkId, 1);
  });

  test('an entry\'s estimate grows with its key, URL, disabled reason and options', () => {
    const plain = cacheEntryBytes('abc1234', target(1, 'https://example.com/x'));
    assert.ok(plain > 200 && plain < 300, String(plain));
    assert.equal(cacheEntryBytes('abc1234', target(1, `https://example.com/x${'y'.repeat(100)}`)), plain + 100);
    assert.equal(cacheEntryBytes('lnk.test/abc1234', target(1, 'https://example.com/x')), plain + 9);
    assert.equal(cacheEntryBytes('abc1234', target(1, 'https://example.com/x', { status: 'DISABLED', disabledReason: 'spam' })), plain + 8);
    assert.ok(cacheEntryBytes('abc1234', target(1, 'https://example.com/x', { extras: { maxClicks: 5 } })) > plain + 20);
  });
});
