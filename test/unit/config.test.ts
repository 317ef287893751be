import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ConfigError, loadConfig, parseDuration } from '../../src/config.js';

describe('loadConfig', () => {
  test('gives SPEC section 10 defaults for an empty environment', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.baseUrl, 'http://localhost:8080');
    assert.equal(config.shortDomain, 'localhost:8080');
    assert.deepEqual(config.database, { kind: 'sqlite', path: path.resolve('data/linkforge.db') });
    assert.equal(config.links.anonTtlMs, 8 * 3_600_000);
    assert.equal(config.links.codeLength, 10);
    assert.equal(config.links.anonCodeLength, 7);
    assert.equal(config.links.maxUrlLength, 4096);
    assert.equal(config.redirect.permanentStatus, 301);
    assert.equal(config.redirect.temporaryStatus, 302);
    assert.equal(config.redirect.maxAgeSeconds, 300);
    assert.equal(config.jwt.ttlMs, 24 * 3_600_000);
    assert.equal(config.bcryptCost, 12);
    assert.deepEqual(config.rateLimit, { anonPerMinute: 20, authPerMinute: 10 });
    assert.deepEqual(config.cleanup, {
      enabled: true, intervalMs: 15 * 60_000, initialDelayMs: 60_000, lockAtMostMs: 14 * 60_000,
      lockAtLeastMs: 10 * 60_000, retentionMs: 7 * 86_400_000, bufferMs: 3_600_000, batchSize: 1000,
      batchPauseMs: 100, maxDurationMs: 5 * 60_000, archive: true,
    });
    assert.equal(config.analytics.flushIntervalMs, 1000);
    assert.equal(config.healthcheck.intervalMs, 6 * 3_600_000);
    assert.equal(config.cache.tombstoneTtlMs, 3_600_000);
    assert.equal(config.cache.negativeTtlMs, 60_000);
  });

  test('derives BASE_URL from PORT and reads sqlite: paths and postgres URLs', () => {
    assert.equal(loadConfig({ PORT: '9000' }).baseUrl, 'http://localhost:9000');
    assert.deepEqual(loadConfig({ DATABASE_URL: 'sqlite:./x/y.db' }).database, { kind: 'sqlite', path: path.resolve('x/y.db') });
    const pg = loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1/db', JWT_SECRET: 'x'.repeat(32) });
    assert.deepEqual(pg.database, { kind: 'postgres', url: 'postgres://u@127.0.0.1/db' });
    assert.equal(loadConfig({ BASE_URL: 'https://Sho.RT/' }).shortDomain, 'sho.rt');
  });

  test('lists every problem at once', () => {
    try {
      loadConfig({ PORT: 'eighty', CLEANUP_INTERVAL: 'soon', PERMANENT_REDIRECT_STATUS: '303', CLEANUP_ENABLED: 'maybe', BASE_URL: 'ftp://x' });
      assert.fail('expected a ConfigError');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 5);
      for (const name of ['PORT', 'CLEANUP_INTERVAL', 'PERMANENT_REDIRECT_STATUS', 'CLEANUP_ENABLED', 'BASE_URL']) {
        assert.match(error.message, new RegExp(name));
      }
    }
  });

  test('refuses a JWT_SECRET shorter than 32 characters, and PostgreSQL without one', () => {
    assert.throws(() => loadConfig({ JWT_SECRET: 'short' }), /JWT_SECRET must be at least 32/);
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/db' }), /JWT_SECRET is required/);
  });

  test('accepts durations as small as 0 and 1ms', () => {
    const config = loadConfig({ CLEANUP_INTERVAL: '1ms', CLEANUP_INITIAL_DELAY: '0', CLEANUP_LOCK_AT_LEAST: '0', ANALYTICS_FLUSH_INTERVAL: '250ms' });
    assert.equal(config.cleanup.intervalMs, 1);
    assert.equal(config.cleanup.initialDelayMs, 0);
    assert.equal(config.analytics.flushIntervalMs, 250);
  });

  test('returns a frozen object', () => {
    const config = loadConfig({});
    assert.ok(Object.isFrozen(config));
    assert.ok(Object.isFrozen(config.cleanup));
  });
});

describe('parseDuration', () => {
  test('reads ms, s, m, h, d and plain milliseconds', () => {
    assert.equal(parseDuration('250ms'), 250);
    assert.equal(parseDuration('2s'), 2000);
    assert.equal(parseDuration('15m'), 900_000);
    assert.equal(parseDuration('8h'), 28_800_000);
    assert.equal(parseDuration('7d'), 604_800_000);
    assert.equal(parseDuration('1500'), 1500);
  });

  test('refuses anything else', () => {
    for (const text of ['', 'fast', '-1s', '5 minutes', '1w', '1e3']) assert.equal(parseDuration(text), undefined, text);
  });
});
