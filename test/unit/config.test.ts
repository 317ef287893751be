import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, describeDatabase, loadConfig } from '../../src/config.js';
import { parseDuration } from '../../src/config-env-reader.js';

describe('loadConfig', () => {
  test('gives the documented defaults (docs/configuration.md) for an empty environment', () => {
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
    assert.deepEqual(config.rateLimit, { anonPerMinute: 20, apiPerMinute: 1000, authPerMinute: 10, redirectsPerMinute: 0 });
    assert.deepEqual(config.instance, { registrationAllowed: true, anonymousLinksAllowed: true });
    assert.deepEqual(config.cleanup, {
      enabled: true, intervalMs: 15 * 60_000, initialDelayMs: 60_000, lockAtMostMs: 14 * 60_000,
      lockAtLeastMs: 10 * 60_000, retentionMs: 7 * 86_400_000, bufferMs: 3_600_000, batchSize: 1000,
      batchPauseMs: 100, maxDurationMs: 5 * 60_000, archive: true, visitsRetentionMs: 90 * 86_400_000, rollupRetentionMs: 400 * 86_400_000, webhookDeliveryRetentionMs: 30 * 86_400_000,
    });
    assert.equal(config.analytics.flushIntervalMs, 1000);
    assert.equal(config.analytics.flushMaxEvents, 50_000, 'a flush of 1,000 events costs the writer about 7× the CPU per visit of one of 50,000 (ADR 0016)');
    assert.equal(config.analytics.bufferMax, 100_000);
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

  test('custom domains: DOMAIN_DNS_SERVERS takes IP addresses with optional ports; STRICT_HOSTS is off and the challenge port 80 by default', () => {
    assert.deepEqual(loadConfig({}).domains, { dnsServers: [], challengeHttpPort: 80, strictHosts: false });
    assert.deepEqual(loadConfig({ DOMAIN_DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[::1]:53,2001:db8::1' }).domains.dnsServers, ['1.1.1.1', '127.0.0.1:5353', '[::1]:53', '2001:db8::1']);
    for (const bad of ['dns.example.com', '1.1.1.1:', 'udp://1.1.1.1']) assert.throws(() => loadConfig({ DOMAIN_DNS_SERVERS: bad }), /DOMAIN_DNS_SERVERS/, bad);
  });

  test('WORKERS: one process by default, up to 64', () => {
    assert.equal(loadConfig({}).workers, 1);
    assert.equal(loadConfig({ WORKERS: '4' }).workers, 4);
    for (const bad of ['0', '65', 'two']) assert.throws(() => loadConfig({ WORKERS: bad }), /WORKERS/);
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
    assert.throws(() => loadConfig({ ROLLUP_RETENTION: '12h' }), /ROLLUP_RETENTION must be at least 1d/);
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/db' }), /JWT_SECRET is required/);
  });

  test('puts each problem on its own line, each line saying what is wrong on its own', () => {
    try {
      loadConfig({ PORT: 'eighty', BASE_URL: 'ftp://x' });
      assert.fail('expected a ConfigError');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      const lines = error.message.split('\n');
      assert.equal(lines.length, 2);
      assert.match(lines[0]!, /^Invalid configuration: PORT must be/);
      assert.match(lines[1]!, /^Invalid configuration: BASE_URL must be/);
    }
  });

  test('refuses a BLOCKLIST_FILE that does not exist or is not a file, and resolves one that is', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-config-'));
    try {
      const missing = path.join(dir, 'missing.txt');
      assert.throws(() => loadConfig({ BLOCKLIST_FILE: missing }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.problems, [`BLOCKLIST_FILE must name a readable file (got "${missing}")`]);
        return true;
      });
      assert.throws(() => loadConfig({ BLOCKLIST_FILE: dir }), /BLOCKLIST_FILE must name a readable file/);
      const file = path.join(dir, 'blocklist.txt');
      fs.writeFileSync(file, 'evil.example\n');
      assert.equal(loadConfig({ BLOCKLIST_FILE: path.relative(process.cwd(), file) }).links.blocklistFile, file);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('refuses a DATABASE_URL that does not parse', () => {
    const secret = { JWT_SECRET: 'x'.repeat(32) };
    for (const url of ['postgres://[::1/db', 'postgres://db.local:99999/db', 'postgres:nohost', 'postgresql://', 'sqlite:', 'mysql://x/db']) {
      assert.throws(() => loadConfig({ DATABASE_URL: url, ...secret }), (error: unknown) => {
        assert.ok(error instanceof ConfigError, url);
        assert.equal(error.problems.length, 1, url);
        assert.match(error.problems[0]!, /^DATABASE_URL /, url);
        return true;
      });
    }
    assert.equal(loadConfig({ DATABASE_URL: 'postgresql://u:p@db.local:5432/links', ...secret }).database.kind, 'postgres');
  });

  test('NOT_FOUND_REDIRECT_URL and EXPIRED_REDIRECT_URL: unset by default, absolute http(s) URLs kept, anything else listed at start-up', () => {
    const defaults = loadConfig({});
    assert.equal(defaults.redirect.notFoundRedirectUrl, undefined);
    assert.equal(defaults.redirect.expiredRedirectUrl, undefined);
    const set = loadConfig({ NOT_FOUND_REDIRECT_URL: 'https://example.com/missing', EXPIRED_REDIRECT_URL: 'http://example.com/gone?from=short' });
    assert.equal(set.redirect.notFoundRedirectUrl, 'https://example.com/missing');
    assert.equal(set.redirect.expiredRedirectUrl, 'http://example.com/gone?from=short');
    assert.throws(() => loadConfig({ NOT_FOUND_REDIRECT_URL: '/relative', EXPIRED_REDIRECT_URL: 'javascript:alert(1)' }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.problems, [
        'NOT_FOUND_REDIRECT_URL must be an absolute http:// or https:// URL, like https://example.com/link-not-found (got "/relative")',
        'EXPIRED_REDIRECT_URL must be an absolute http:// or https:// URL, like https://example.com/link-not-found (got "javascript:alert(1)")',
      ]);
      return true;
    });
  });

  test('refuses a REDIS_URL that does not parse, and keeps one that does', () => {
    for (const url of ['localhost:6379', 'redis://', 'http://cache:6379', 'redis://cache:99999']) {
      assert.throws(() => loadConfig({ REDIS_URL: url }), (error: unknown) => {
        assert.ok(error instanceof ConfigError, url);
        assert.deepEqual(error.problems, ['REDIS_URL is not a valid redis:// or rediss:// URL (expected redis://host:port)'], url);
        return true;
      });
    }
    assert.equal(loadConfig({ REDIS_URL: 'redis://cache:6379/0' }).redisUrl, 'redis://cache:6379/0');
    assert.equal(loadConfig({ REDIS_URL: 'rediss://user:pw@cache.example' }).redisUrl, 'rediss://user:pw@cache.example');
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

describe('variables that look like ours but are not', () => {
  test('an alias or a near miss is named with the real variable; unrelated variables are left alone', () => {
    const config = loadConfig({
      REDIS_URI: 'redis://127.0.0.1:6379', DB_URL: 'postgres://x', PROT: '80', JWT_SECRETS: 'x',
      PATH: '/bin', HOME: '/root', PGPORT: '5432', HOSTNAME: 'box', USER: 'root', npm_config_cache: '/x', LANG: 'C', PORT: '8080',
    });
    assert.deepEqual(config.warnings, [
      'REDIS_URI is not a Linkforge variable; did you mean REDIS_URL?',
      'DB_URL is not a Linkforge variable; did you mean DATABASE_URL?',
      'PROT is not a Linkforge variable; did you mean PORT?',
      'JWT_SECRETS is not a Linkforge variable; did you mean JWT_SECRET?',
    ]);
  });

  test('the ready line names the database without its credentials', () => {
    assert.equal(describeDatabase({ kind: 'sqlite', path: '/srv/data/linkforge.db' }), 'sqlite /srv/data/linkforge.db');
    assert.equal(describeDatabase({ kind: 'postgres', url: 'postgres://links:s3cret@db.internal:5433/linkforge' }), 'postgres db.internal:5433/linkforge');
  });
});
