import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../support/test-app.js';
import { insertLink, setLinkColumns } from '../support/links.js';
import { listenLocally, parseExposition, scrape, valueOf, type Sample } from '../support/scrape.js';
import { HOUR } from '../support/owned-links.js';
import { observeCleanup } from '../support/cleanup-observer.js';
import { onTeardown } from '../support/teardown.js';

async function get(base: string, path: string, method = 'GET'): Promise<number> {
  const response = await fetch(`${base}${path}`, { method, redirect: 'manual' });
  await response.arrayBuffer();
  return response.status;
}

describe('GET /metrics: redirect outcomes, counted by the responder', () => {
  test('after N redirects of each outcome on the real server (the fast path), the counters say exactly that', async (context) => {
    const t = await createTestApp(context);
      const now = t.clock.now();
      const permanent = await insertLink(t.deps);
      const expiring = await insertLink(t.deps, { expiresAt: now + HOUR });
      const expired = await insertLink(t.deps, { expiresAt: now - 1 });
      const deleted = await insertLink(t.deps);
      await setLinkColumns(t.deps, deleted.id, { status: 'DELETED', deleted_at: now });
      const uncached = await insertLink(t.deps);
      const base = await listenLocally(t.app);

      const answers: number[] = [];
      for (let i = 0; i < 3; i++) answers.push(await get(base, `/${permanent.code}`));
      answers.push(await get(base, `/${permanent.code}`, 'HEAD'));
      for (let i = 0; i < 2; i++) answers.push(await get(base, `/${expiring.code}`));
      for (let i = 0; i < 5; i++) answers.push(await get(base, `/unknown${i}`));
      answers.push(await get(base, `/${expired.code}`), await get(base, `/${deleted.code}/`));
      await t.deps.database.close();
      answers.push(await get(base, `/${uncached.code}`));
      assert.deepEqual(answers, [301, 301, 301, 301, 302, 302, 404, 404, 404, 404, 404, 410, 410, 503]);

      const samples = await scrape(t.app);
      const expected = { 301: 4, 302: 2, 404: 5, 410: 2, 503: 1 };
      for (const [status, count] of Object.entries(expected)) {
        assert.equal(valueOf(samples, 'linkforge_redirects_total', { status }), count, `status ${status}`);
        assert.equal(valueOf(samples, 'linkforge_redirect_duration_seconds_count', { status }), count, `histogram count ${status}`);
        assert.equal(valueOf(samples, 'linkforge_redirect_duration_seconds_bucket', { status, le: '+Inf' }), count);
      }
      assert.equal(samples.filter((s) => s.name === 'linkforge_redirects_total').length, 5, 'no other status appears');
      // The fast path never reaches Fastify: no request series for it.
      assert.deepEqual(samples.filter((s) => s.name === 'linkforge_http_requests_total' && s.labels.route !== '/metrics'), []);
  });

  test('redirects through app.inject (the Fastify route) are counted once, by the responder, not as API requests', async (context) => {
    const t = await createTestApp(context);
      const link = await insertLink(t.deps);
      for (let i = 0; i < 3; i++) assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
      const samples = await scrape(t.app);
      assert.equal(valueOf(samples, 'linkforge_redirects_total', { status: '301' }), 3);
      assert.equal(samples.filter((s) => s.name === 'linkforge_http_requests_total' && s.labels.route?.startsWith('/:code')).length, 0);
  });

  test('each app counts on a registry of its own', async (context) => {
    const [a, b] = await Promise.all([createTestApp(context), createTestApp(context)]);
      const link = await insertLink(a.deps);
      await a.app.inject({ url: `/${link.code}` });
      assert.equal(valueOf(await scrape(a.app), 'linkforge_redirects_total', { status: '301' }), 1);
      assert.equal(valueOf(await scrape(b.app), 'linkforge_redirects_total', { status: '301' }), 0);
  });
});

describe('GET /metrics: API requests', () => {
  test('a request is labelled with its route pattern, never its URL; unmatched paths share one label', async (context) => {
    const t = await createTestApp(context);
      for (const id of [111111, 222222, 333333]) assert.equal((await t.app.inject({ url: `/api/urls/${id}` })).statusCode, 401);
      assert.equal((await t.app.inject({ url: '/no/such/path-xyzzy' })).statusCode, 404);
      assert.equal((await t.app.inject({ url: '/another/missing-plugh?q=1' })).statusCode, 404);
      const response = await t.app.inject({ url: '/metrics' });
      const samples = parseExposition(response.body);
      assert.equal(valueOf(samples, 'linkforge_http_requests_total', { method: 'GET', route: '/api/urls/:id', status: '401' }), 3);
      assert.equal(valueOf(samples, 'linkforge_http_request_duration_seconds_count', { method: 'GET', route: '/api/urls/:id', status: '401' }), 3);
      assert.equal(valueOf(samples, 'linkforge_http_requests_total', { route: 'unmatched', status: '404' }), 2);
      for (const raw of ['111111', '222222', 'xyzzy', 'plugh']) assert.ok(!response.body.includes(raw), `${raw} appears in the exposition`);
  });

  test('the process metrics include the event-loop delay', async (context) => {
    const t = await createTestApp(context);
      const samples = await scrape(t.app);
      assert.ok(samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds'));
      assert.ok(valueOf(samples, 'process_resident_memory_bytes') > 0);
  });
});

describe('METRICS_TOKEN and METRICS_ENABLED', () => {
  test('with METRICS_TOKEN set, /metrics answers 401 without the bearer token or with a wrong one, 200 with it', async (context) => {
    const token = 'scrape-secret-0123456789';
    const t = await createTestApp(context, { METRICS_TOKEN: token });
      for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: `Bearer ${token}x` }, { authorization: token }, { authorization: 'Bearer ' }]) {
        const response = await t.app.inject({ url: '/metrics', headers });
        assert.equal(response.statusCode, 401, JSON.stringify(headers));
        assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
        assert.equal(response.json().code, 'authentication_required');
        assert.match(String(response.headers['www-authenticate']), /^Bearer/);
        assert.ok(!response.body.includes('linkforge_'));
      }
      assert.ok((await scrape(t.app, token)).some((s) => s.name === 'linkforge_redirects_total' || s.name === 'linkforge_http_requests_total'));
  });

  test('the Bearer scheme is accepted in any case, with the right token only', async (context) => {
    const token = 'scrape-secret-0123456789';
    const t = await createTestApp(context, { METRICS_TOKEN: token });
      for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
        const accepted = await t.app.inject({ url: '/metrics', headers: { authorization: `${scheme} ${token}` } });
        assert.equal(accepted.statusCode, 200, scheme);
        assert.match(accepted.body, /linkforge_/);
        const refused = await t.app.inject({ url: '/metrics', headers: { authorization: `${scheme} ${token}x` } });
        assert.equal(refused.statusCode, 401, scheme);
        assert.equal(refused.json().code, 'authentication_required');
      }
  });

  test('without METRICS_TOKEN, /metrics is open', async (context) => {
    const t = await createTestApp(context);
      assert.equal((await t.app.inject({ url: '/metrics' })).statusCode, 200);
  });

  test('METRICS_ENABLED=false: /metrics is not there, and redirects still answer', async (context) => {
    const t = await createTestApp(context, { METRICS_ENABLED: 'false' });
      const link = await insertLink(t.deps);
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
      const response = await t.app.inject({ url: '/metrics' });
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().code, 'route_not_found');
  });
});

const lookups = (samples: readonly Sample[]) => Object.fromEntries(['memory', 'redis', 'database'].flatMap((tier) =>
  ['hit', 'miss', 'error'].map((result) => [`${tier}:${result}`, valueOf(samples, 'linkforge_cache_lookups_total', { tier, result })])));

function delta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([key, value]) => [key, value - before[key]!]).filter(([, value]) => value !== 0));
}

describe('GET /metrics: cache tiers', () => {
  test('a first lookup misses memory and hits the database; the next hits memory; an unknown code misses both, then hits memory', async (context) => {
    const t = await createTestApp(context);
      const link = await insertLink(t.deps);
      const at = async () => lookups(await scrape(t.app));
      let before = await at();
      await t.app.inject({ url: `/${link.code}` });
      assert.deepEqual(delta(before, before = await at()), { 'memory:miss': 1, 'database:hit': 1 });
      await t.app.inject({ url: `/${link.code}` });
      assert.deepEqual(delta(before, before = await at()), { 'memory:hit': 1 });
      await t.app.inject({ url: '/unknown77' });
      assert.deepEqual(delta(before, before = await at()), { 'memory:miss': 1, 'database:miss': 1 });
      await t.app.inject({ url: '/unknown77' });
      assert.deepEqual(delta(before, await at()), { 'memory:hit': 1 });
      assert.equal(valueOf(await scrape(t.app), 'linkforge_cache_entries'), 1);
  });

  test('with Redis (scaled mode), a memory miss is looked up in Redis before the database', async (context) => {
    const { deleteKeysUnder, freshKeyPrefix, REDIS_SERVER } = await import('../support/redis.js');
    const prefix = freshKeyPrefix();
    onTeardown(context, () => deleteKeysUnder(prefix));
    const t = await createTestApp(context, { REDIS_URL: REDIS_SERVER, REDIS_KEY_PREFIX: prefix }, { database: 'postgres' });
      const redis = t.deps.redis!.connection;
      for (let i = 0; i < 250 && !redis.isReachable; i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(redis.isReachable, 'Redis is reachable');
      const link = await insertLink(t.deps);
      const at = async () => lookups(await scrape(t.app));
      let before = await at();
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
      assert.deepEqual(delta(before, before = await at()), { 'memory:miss': 1, 'redis:miss': 1, 'database:hit': 1 });
      // The fill of Redis is not awaited by the redirect: wait for it before the next lookup.
      for (let i = 0; i < 100 && (await t.deps.redis!.connection.commands.keys(`${prefix}*`)).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      t.deps.localCache.clear();
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
      assert.deepEqual(delta(before, await at()), { 'memory:miss': 1, 'redis:hit': 1 });
  });

  test('a Redis that cannot be reached counts as a Redis error, and the lookup goes on to the database', async (context) => {
    const { freePort } = await import('../support/free-port.js');
    const t = await createTestApp(context, { REDIS_URL: `redis://127.0.0.1:${await freePort()}` }, { database: 'postgres' });
      const link = await insertLink(t.deps);
      const before = lookups(await scrape(t.app));
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
      assert.deepEqual(delta(before, lookups(await scrape(t.app))), { 'memory:miss': 1, 'redis:error': 1, 'database:hit': 1 });
  });
});

describe('GET /metrics: background work and resources', () => {
  test('after a reaper run, its run, rows and duration are counted', async (context) => {
    const t = await createTestApp(context, { CLEANUP_BATCH_PAUSE: '0', CLEANUP_LOCK_AT_LEAST: '0' });
      for (let i = 0; i < 3; i++) await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() - HOUR - i });
      const result = await t.deps.cleanup.job.run();
      assert.equal(result.outcome, 'ran');
      const samples = await scrape(t.app);
      assert.equal(valueOf(samples, 'linkforge_reaper_runs_total', { status: 'succeeded' }), 1);
      assert.equal(valueOf(samples, 'linkforge_reaper_runs_total', { status: 'failed' }), 0);
      assert.equal(valueOf(samples, 'linkforge_reaper_rows_total', { action: 'marked_expired' }), 3);
      assert.equal(valueOf(samples, 'linkforge_reaper_rows_total', { action: 'purged' }), 0);
      assert.equal(valueOf(samples, 'linkforge_reaper_run_duration_seconds_count'), 1);
      assert.equal(valueOf(samples, 'linkforge_reaper_last_success_timestamp_seconds'), t.clock.now() / 1000);
  });

  test('a reaper run that fails is counted as failed, with the rows its committed batches changed (F-07)', async (context) => {
    const t = await createTestApp(context, { CLEANUP_BATCH_PAUSE: '0', CLEANUP_LOCK_AT_LEAST: '0', CLEANUP_BATCH_SIZE: '1' });
      for (let i = 0; i < 3; i++) await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() - HOUR - i });
      observeCleanup(t.deps.cleanup, { beforeBatch: ({ batch }) => { if (batch === 3) throw new Error('injected failure on batch 3'); } });
      const result = await t.deps.cleanup.job.run();
      assert.ok(result.outcome === 'ran' && result.status === 'failed');
      const samples = await scrape(t.app);
      assert.equal(valueOf(samples, 'linkforge_reaper_runs_total', { status: 'failed' }), 1);
      assert.equal(valueOf(samples, 'linkforge_reaper_runs_total', { status: 'succeeded' }), 0);
      assert.equal(valueOf(samples, 'linkforge_reaper_rows_total', { action: 'marked_expired' }), 2);
      assert.equal(valueOf(samples, 'linkforge_reaper_last_success_timestamp_seconds'), 0);
  });

  test('a full analytics buffer counts its dropped visits; the flush lag is the age of the oldest unwritten visit', async (context) => {
    const t = await createTestApp(context, { ANALYTICS_BUFFER_MAX: '2' });
      const link = await insertLink(t.deps);
      for (let i = 0; i < 5; i++) assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
      t.clock.advance(5_000);
      let samples = await scrape(t.app);
      assert.equal(valueOf(samples, 'linkforge_analytics_visits_dropped_total'), 3);
      assert.equal(valueOf(samples, 'linkforge_analytics_visits_buffered'), 2);
      assert.equal(valueOf(samples, 'linkforge_analytics_flush_lag_seconds'), 5);
      await t.deps.analytics!.flusher.flushNow();
      samples = await scrape(t.app);
      assert.equal(valueOf(samples, 'linkforge_analytics_flush_lag_seconds'), 0);
      assert.equal(valueOf(samples, 'linkforge_analytics_visits_buffered'), 0);
  });

  test('visits a failed flush keeps for its retry still count as lag: the lag grows while the database is down', async (context) => {
    const t = await createTestApp(context);
      const link = await insertLink(t.deps);
      for (let i = 0; i < 2; i++) assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
      t.clock.advance(5_000);
      await t.deps.database.close();
      await assert.rejects(t.deps.analytics!.flusher.flushNow());
      t.clock.advance(3_000);
      const samples = await scrape(t.app);
      assert.equal(valueOf(samples, 'linkforge_analytics_visits_buffered'), 0, 'the flush holds them');
      assert.equal(valueOf(samples, 'linkforge_analytics_flush_lag_seconds'), 8);
  });

  test('the database gauges: the pg pool in scaled mode, the writer queue on SQLite', async (context) => {
    const t = await createTestApp(context);
      await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/gauges' } });
      const samples = await scrape(t.app);
      const pool = samples.filter((s) => s.name === 'linkforge_db_pool_connections');
      if (t.config.database.kind === 'postgres') {
        const total = valueOf(samples, 'linkforge_db_pool_connections', { state: 'total' });
        const idle = valueOf(samples, 'linkforge_db_pool_connections', { state: 'idle' });
        assert.ok(total >= 1 && total <= t.config.dbPoolMax, `total ${total}`);
        assert.ok(idle >= 0 && idle <= total, `idle ${idle} of ${total}`);
        assert.equal(pool.length, 3);
        assert.equal(samples.filter((s) => s.name === 'linkforge_sqlite_write_queue').length, 0);
      } else {
        assert.equal(pool.length, 0);
        assert.equal(valueOf(samples, 'linkforge_sqlite_write_queue'), 0);
        assert.equal(samples.filter((s) => s.name === 'linkforge_sqlite_write_queue').length, 1);
      }
  });
});
