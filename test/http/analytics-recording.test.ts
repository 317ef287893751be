import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { createDeps } from '../../src/deps.js';
import type { Composition } from '../../src/deps.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { insertLink, setLinkColumns } from '../support/links.js';
import { eventually } from '../support/cleanup-fixtures.js';
import { visitsWithFacts } from '../support/visit-rows.js';
import { onTeardown } from '../support/teardown.js';

// Real User-Agents of each class (the classifier's own corpus has many more).
const HUMAN_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PREVIEW_UA = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

const countsOf = async (deps: Composition, id: number) => {
  const row = await deps.database.db.selectFrom('links')
    .select(['redirect_count', 'human_count', 'bot_count', 'preview_count', 'avg_redirect_ms'])
    .where('id', '=', id).executeTakeFirstOrThrow();
  return {
    total: Number(row.redirect_count), human: Number(row.human_count), bot: Number(row.bot_count), preview: Number(row.preview_count),
    avgMs: Number(row.avg_redirect_ms),
  };
};

const analyticsOf = (t: TestApp) => t.deps.analytics ?? assert.fail('analytics are on by default');

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

describe('recording redirects for analytics', () => {
  test('N concurrent redirects on a real socket, GET and HEAD, give exactly N counted after a flush, split by class', async (context) => {
    const t = await createTestApp(context);
      const base = await listen(t);
      const links = [await insertLink(t.deps), await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() + 3_600_000 })];
      const gone = await insertLink(t.deps);
      await setLinkColumns(t.deps, gone.id, { status: 'DELETED', deleted_at: t.clock.now() });
      const plan = [...Array(30).fill(HUMAN_UA), ...Array(20).fill(BOT_UA), ...Array(10).fill(PREVIEW_UA)] as string[];
      const requests = plan.map((userAgent, i) => fetch(`${base}/${links[i % 2]!.code}`, {
        method: i % 3 === 0 ? 'HEAD' : 'GET', redirect: 'manual', headers: { 'user-agent': userAgent, referer: 'https://news.example/item?id=1' },
      }));
      const notCounted = [fetch(`${base}/${gone.code}`, { redirect: 'manual' }), fetch(`${base}/unknown9`, { redirect: 'manual' })];
      const statuses = (await Promise.all([...requests, ...notCounted])).map((res) => res.status);
      assert.deepEqual(statuses.slice(0, 60).filter((s) => s !== 301 && s !== 302), []);
      assert.deepEqual(statuses.slice(60), [410, 404]);

      await analyticsOf(t).flusher.flushNow();
      const counts = await Promise.all(links.map((link) => countsOf(t.deps, link.id)));
      assert.deepEqual(counts.map(({ avgMs: _, ...rest }) => rest), [
        { total: 30, human: 15, bot: 10, preview: 5 },
        { total: 30, human: 15, bot: 10, preview: 5 },
      ]);
      for (const { avgMs } of counts) assert.ok(avgMs > 0, 'the handler latency was measured');
      assert.equal((await countsOf(t.deps, gone.id)).total, 0);
      const global = await t.deps.database.db.selectFrom('global_stats').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual([global.total_redirects, global.human_redirects, global.bot_redirects, global.preview_redirects].map(Number), [60, 30, 20, 10]);
      const visits = await visitsWithFacts(t.deps.database.db).execute();
      assert.equal(visits.length, 60);
      assert.ok(visits.every((v) => v.referrer_host === 'news.example'), 'the referrer host only');
  });

  test('a full buffer drops the events that do not fit and counts them; the redirects still answer', async (context) => {
    const t = await createTestApp(context, { ANALYTICS_BUFFER_MAX: '3' });
      const link = await insertLink(t.deps);
      for (let i = 0; i < 5; i++) assert.equal((await t.app.inject({ url: `/${link.code}`, headers: { 'user-agent': HUMAN_UA } })).statusCode, 301);
      assert.equal(analyticsOf(t).buffer.dropped, 2);
      await analyticsOf(t).flusher.flushNow();
      assert.equal((await countsOf(t.deps, link.id)).total, 3);
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
      assert.equal(analyticsOf(t).buffer.dropped, 2, 'a flush makes room again');
  });

  test('a flush the database refuses keeps its visits, and the next flush writes them with the new ones', async (context) => {
    // The default timeouts (5 s): shorter ones made the app's own start-up writes fail under load,
    // since the writer thread's start counts against them.
    const t = await createTestApp(context);
      const link = await insertLink(t.deps);
      for (let i = 0; i < 4; i++) await t.app.inject({ url: `/${link.code}`, headers: { 'user-agent': HUMAN_UA } });
      const unlock = await lockAnalyticsTables(t);
      try {
        await assert.rejects(analyticsOf(t).flusher.flushNow());
      } finally {
        await unlock();
      }
      await t.app.inject({ url: `/${link.code}`, headers: { 'user-agent': BOT_UA } });
      await analyticsOf(t).flusher.flushNow();
      assert.deepEqual(await countsOf(t.deps, link.id).then(({ avgMs: _, ...rest }) => rest), { total: 5, human: 4, bot: 1, preview: 0 });
  });

  test('events that reach ANALYTICS_FLUSH_MAX_EVENTS while a flush runs are written when it ends, not an interval later', async (context) => {
    // No interval timer runs in a test app: only the threshold can start these flushes.
    const t = await createTestApp(context, { ANALYTICS_FLUSH_MAX_EVENTS: '3' });
      const link = await insertLink(t.deps);
      const redirects = async (count: number) => {
        for (let i = 0; i < count; i++) assert.equal((await t.app.inject({ url: `/${link.code}`, headers: { 'user-agent': HUMAN_UA } })).statusCode, 301);
      };
      const unlock = await lockAnalyticsTables(t);
      try {
        await redirects(3);
        await eventually(() => analyticsOf(t).buffer.size === 0, 5_000, 'the first flush took the first three events');
        await redirects(3);
        assert.equal(analyticsOf(t).buffer.size, 3, 'the next three wait while the first flush waits for the lock');
      } finally {
        await unlock();
      }
      await eventually(async () => (await countsOf(t.deps, link.id)).total === 6, 5_000, 'all six visits written without flushNow');
      assert.equal(analyticsOf(t).buffer.dropped, 0);
  });

  test('shutdown flushes what is buffered before the database closes', async (context) => {
    const t = await createTestApp(context);
    let reopened: Composition | undefined;
    onTeardown(context, () => reopened?.close());
      const link = await insertLink(t.deps);
      for (let i = 0; i < 3; i++) await t.app.inject({ url: `/${link.code}`, headers: { 'user-agent': PREVIEW_UA } });
      await t.app.close();
      await t.deps.close();
      reopened = await createDeps(t.config);
      assert.deepEqual(await countsOf(reopened, link.id).then(({ avgMs: _, ...rest }) => rest), { total: 3, human: 0, bot: 0, preview: 3 });
  });

  test('ANALYTICS_ENABLED=false records nothing', async (context) => {
    const t = await createTestApp(context, { ANALYTICS_ENABLED: 'false' });
      assert.equal(t.deps.analytics, undefined);
      const link = await insertLink(t.deps);
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
  });
});

/**
 * Another client holds the lock the flush needs (SQLite's write lock; a PostgreSQL table lock),
 * so the flush fails after DB_WRITE_TIMEOUT or DB_STATEMENT_TIMEOUT. Answers the release.
 */
async function lockAnalyticsTables(t: TestApp): Promise<() => Promise<void>> {
  if (t.config.database.kind === 'sqlite') {
    const other = new SQLite(t.config.database.path);
    other.exec('BEGIN IMMEDIATE');
    return async () => { other.exec('ROLLBACK'); other.close(); };
  }
  const other = new pg.Client({ connectionString: t.config.database.url });
  await other.connect();
  await other.query('begin');
  await other.query('lock table global_stats in exclusive mode');
  return async () => { await other.query('rollback'); await other.end(); };
}
