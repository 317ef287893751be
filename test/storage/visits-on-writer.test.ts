import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { batchOfVisits } from '../../src/core/visit-batch.js';
import type { Visit } from '../../src/core/visit-ports.js';
import { visitWriterFor } from '../../src/storage/visits/visit-writer.js';
import { insertLink } from '../support/links.js';
import { createTestApp } from '../support/test-app.js';
import { visitsWithFacts } from '../support/visit-rows.js';
import { HUMAN_AGENTS } from '../fixtures/user-agents.js';

// The VisitWriter contract itself runs on every backend in test/contract/visit-writer.test.ts.
describe('the visit flush on the embedded database', () => {
  test('is one message to the writer thread: the main thread runs no statement of it', async (context) => {
    const t = await createTestApp(context, { ANALYTICS_ENABLED: 'true' }, { database: 'sqlite' });
      // A first flush of the day also fetches the day's salt of visitor ids (ADR 0028), through the writer too.
      const warmUp = await insertLink(t.deps);
      await t.app.inject({ url: `/${warmUp.code}`, headers: { 'user-agent': HUMAN_AGENTS.firefoxLinux } });
      await t.deps.analytics!.flusher.flushNow();
      const link = await insertLink(t.deps);
      for (let i = 0; i < 3; i++) {
        await t.app.inject({ url: `/${link.code}`, headers: { 'user-agent': HUMAN_AGENTS.firefoxLinux, referer: 'https://news.example/post' } });
      }
      const writer = t.deps.database.embedded!.writer;
      const sentBefore = writer.sent;
      t.statements.length = 0;
      await t.deps.analytics!.flusher.flushNow();
      assert.equal(writer.sent - sentBefore, 1, 'one writer request per flush');
      // The reader's COMMIT ends its shared snapshot when a write settles (sqlite-reader.ts); it is no write.
      assert.deepEqual(t.statements.filter((text) => !/^(begin|commit)$/i.test(text)), ['task recordVisits']);
      const row = await t.deps.database.db.selectFrom('links').select(['redirect_count', 'human_count']).where('id', '=', link.id).executeTakeFirstOrThrow();
      assert.deepEqual([Number(row.redirect_count), Number(row.human_count)], [3, 3]);
      const visits = await visitsWithFacts(t.deps.database.db).where('visits.link_id', '=', link.id).execute();
      assert.deepEqual(visits.map((v) => ({ referrer_host: v.referrer_host, browser: v.browser })), Array(3).fill({ referrer_host: 'news.example', browser: 'Firefox' }));
  });

  test('a batch that fails part-way leaves nothing of itself, and the writes committed beside it stay', async (context) => {
    const t = await createTestApp(context, {}, { database: 'sqlite' });
      const db = t.deps.database.db;
      const link = await insertLink(t.deps);
      // The visit rows come after the global and per-link counters: a refused visit must undo those too.
      await sql`create trigger refuse_visits before insert on visits begin select raise(abort, 'visits refused'); end`.execute(db);
      const global = () => db.selectFrom('global_stats').select(['total_redirects', 'avg_latency_ms']).where('id', '=', 1).executeTakeFirstOrThrow();
      const before = await global();
      const visit: Visit = { linkId: link.id, visitedAt: t.clock.now(), latencyMs: 2, visitorClass: 'human', referrerHost: null, browser: null, os: null, device: null };
      const store = visitWriterFor(t.deps.database);
      const [flush, beside] = await Promise.allSettled([store.recordBatch(batchOfVisits([visit, visit])), insertLink(t.deps, { code: 'beside' })]);
      assert.equal(flush.status, 'rejected');
      assert.match(String((flush as PromiseRejectedResult).reason), /visits refused/);
      assert.equal(beside.status, 'fulfilled');
      assert.deepEqual(await global(), before);
      const counts = await db.selectFrom('links').select('redirect_count').where('id', '=', link.id).executeTakeFirstOrThrow();
      assert.equal(Number(counts.redirect_count), 0);
      assert.deepEqual(await db.selectFrom('link_clicks_hourly').selectAll().where('link_id', '=', link.id).execute(), []);

      await sql`drop trigger refuse_visits`.execute(db);
      await store.recordBatch(batchOfVisits([visit, visit]));
      assert.equal(Number((await db.selectFrom('links').select('redirect_count').where('id', '=', link.id).executeTakeFirstOrThrow()).redirect_count), 2);
  });

  test('a flush of 100,000 visits, each from a new referrer host, is written whole: the writer thread does not run out of its heap', async (context) => {
    const t = await createTestApp(context, {}, { database: 'sqlite' });
      const link = await insertLink(t.deps);
      const analytics = t.deps.analytics!;
      const host = 'a'.repeat(50);
      // As the redirect path records them: hosts of ~70 characters, as many as the buffer's text bound holds.
      for (let i = 0; i < 100_000; i++) analytics.buffer.record(link.id, 1, HUMAN_AGENTS.firefoxLinux, `https://${host}${i}.example.org/`);
      await analytics.flusher.flushNow();
      const row = await t.deps.database.db.selectFrom('links').select('redirect_count').where('id', '=', link.id).executeTakeFirstOrThrow();
      assert.equal(Number(row.redirect_count), 100_000);
      assert.equal(analytics.buffer.dropped, 0);
  });

  test('writes held by a writer thread that dies answer 503 with Retry-After, none is stored, and the next write starts a new thread', async (context) => {
    const t = await createTestApp(context, {}, { database: 'sqlite' });
      const link = await insertLink(t.deps);
      const writer = t.deps.database.embedded!.writer;
      // A fault: one task larger than the thread's heap, sent to it directly (the flusher never sends one).
      const visits: Visit[] = Array.from({ length: 150_000 }, (_, i) => ({
        linkId: link.id, visitedAt: t.clock.now(), latencyMs: 1, visitorClass: 'human', referrerHost: `${'b'.repeat(230)}${i}.example.org`, browser: 'Firefox', os: 'Linux', device: 'desktop',
      }));
      const killer = writer.task('recordVisits', batchOfVisits(visits));
      const held = t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/held' } });
      await assert.rejects(killer, (error: { code?: string }) => error.code === 'SQLITE_WRITER_EXITED');
      const answer = await held;
      assert.equal(answer.statusCode, 503, answer.body);
      assert.ok(answer.headers['retry-after']);
      assert.equal(answer.json().code, 'store_unavailable');
      const next = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/next' } });
      assert.equal(next.statusCode, 201, next.body);
      const urls = await t.deps.database.db.selectFrom('links').select('original_url').where('original_url', 'in', ['https://example.com/held', 'https://example.com/next']).execute();
      assert.deepEqual(urls.map((row) => row.original_url), ['https://example.com/next']);
  });
});
