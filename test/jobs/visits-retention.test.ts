import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { DAY, HOUR, linkInState, ran, QUICK_CLEANUP } from '../support/cleanup-fixtures.js';
import { insertBreakdown, insertHourlyClicks, insertVisits, setGlobalStats, visitIdsAndRanges, visitLinkIds, visitsWithFacts } from '../support/visit-rows.js';
import type { VisitFacts } from '../../src/core/visit-ports.js';
import { batchOfVisits } from '../../src/core/visit-batch.js';
import { visitWriterFor } from '../../src/storage/visits/visit-writer.js';
import { observeCleanup } from '../support/cleanup-observer.js';

/** Everything the read side answers from: it must come through a run unchanged. */
async function summaries(t: TestApp) {
  const { db } = t.deps.database;
  return {
    links: await db.selectFrom('links').select(['id', 'redirect_count', 'avg_redirect_ms', 'human_count', 'bot_count', 'preview_count']).orderBy('id').execute(),
    hourly: await db.selectFrom('link_clicks_hourly').selectAll().orderBy('link_id').orderBy('hour_start').orderBy('visitor_class').execute(),
    daily: await db.selectFrom('link_breakdown_daily').selectAll().orderBy('link_id').orderBy('day_start').orderBy('value').execute(),
    global: await db.selectFrom('global_stats').selectAll().execute(),
  };
}

async function visitTimes(t: TestApp): Promise<number[]> {
  const rows = await t.deps.database.db.selectFrom('visits').select('visited_at').orderBy('visited_at').execute();
  return rows.map((row) => Number(row.visited_at));
}

describe('raw visits are bounded: VISITS_RETENTION and purged links', () => {
  test('visits older than VISITS_RETENTION are deleted in batches of CLEANUP_BATCH_SIZE; newer ones, counters and roll-ups stay', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '3', VISITS_RETENTION: '30d' });
    try {
      const { db } = t.deps.database;
      const now = t.clock.now();
      const cutoff = now - 30 * DAY;
      const link = await linkInState(t.deps, { expiresAt: null });
      await db.updateTable('links').set({ redirect_count: 9, avg_redirect_ms: 1.5, human_count: 7, bot_count: 2 }).where('id', '=', link.id).execute();
      await insertVisits(db, link.id, cutoff - 7 * 60_000, 7); // the last one a minute before the cutoff
      await insertVisits(db, link.id, cutoff, 2); // at the cutoff and after: kept
      await insertHourlyClicks(db, link.id, cutoff - HOUR, { human: 7, bot: 2 });
      await insertBreakdown(db, link.id, cutoff - DAY, 'referrer', 'news.example', { human: 7, bot: 2 });
      await setGlobalStats(db, { total: 9, avgMs: 1.5, human: 7, bot: 2, preview: 0 });
      const before = await summaries(t);
      const events: string[] = [];
      observeCleanup(t.deps.cleanup, { beforeCommit: ({ phase, batch, rows }) => { events.push(`${phase}${batch}:${rows}`); } });

      const run = ran(await t.deps.cleanup.job.run());

      assert.equal(run.status, 'succeeded');
      assert.deepEqual(events.filter((event) => event.startsWith('visits')), ['visits1:3', 'visits2:3', 'visits3:1']);
      assert.equal(run.visitsDeleted, 7);
      const recorded = await db.selectFrom('cleanup_runs').select('visits_deleted').where('id', '=', run.runId!).executeTakeFirstOrThrow();
      assert.equal(Number(recorded.visits_deleted), 7, 'the run\'s row in cleanup_runs records it');
      assert.equal(run.batches, 3);
      assert.equal(run.lastBatchSize, 1);
      assert.deepEqual(await visitTimes(t), [cutoff, cutoff + 60_000]);
      const left = await visitIdsAndRanges(db, link.id);
      assert.deepEqual(left.ranges, [[left.ids[0], left.ids[1]]], 'the range of the deleted visits went with them');
      assert.deepEqual(await summaries(t), before, 'counters, roll-ups and the global row are untouched');
      assert.equal(ran(await t.deps.cleanup.job.run()).visitsDeleted, 0, 'the next run finds nothing');
    } finally {
      await t.close();
    }
  });

  test('the visits phase shares the run\'s deadline: past CLEANUP_MAX_DURATION it stops after its batch and the next run goes on', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '2', VISITS_RETENTION: '1d', CLEANUP_MAX_DURATION: '1h' });
    try {
      const link = await linkInState(t.deps, { expiresAt: null });
      await insertVisits(t.deps.database.db, link.id, t.clock.now() - 2 * DAY, 5);
      observeCleanup(t.deps.cleanup, { beforeCommit: ({ phase }) => { if (phase === 'visits') t.clock.advance(2 * HOUR); } });
      const first = ran(await t.deps.cleanup.job.run());
      assert.deepEqual([first.visitsDeleted, first.stoppedEarly], [2, 'time_limit']);
      observeCleanup(t.deps.cleanup, {});
      const second = ran(await t.deps.cleanup.job.run());
      assert.deepEqual([second.visitsDeleted, second.stoppedEarly], [3, null]);
      assert.deepEqual(await visitTimes(t), []);
    } finally {
      await t.close();
    }
  });

  test('a purged link\'s visits go with it in its purge batch, however recent; other links\' visits stay', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_RETENTION: '1d', VISITS_RETENTION: '90d' });
    try {
      const { db } = t.deps.database;
      const now = t.clock.now();
      const purged = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: now - 2 * DAY });
      const kept = await linkInState(t.deps, { expiresAt: null });
      await insertVisits(db, purged.id, now - 3 * DAY, 4);
      await insertVisits(db, kept.id, now - 3 * DAY, 2);
      await insertHourlyClicks(db, purged.id, now - 3 * DAY, { human: 4 });
      // A range of the purged link that also spans the kept link's rows (two PostgreSQL instances
      // flushing at once interleave their ids): the purge goes by link as well as by range.
      const keptRows = await visitIdsAndRanges(db, kept.id);
      const purgedRows = await visitIdsAndRanges(db, purged.id);
      await db.insertInto('visit_ranges').values({ link_id: purged.id, first_id: purgedRows.ids[1]!, last_id: keptRows.ids[1]! }).execute();

      // A purge batch that fails keeps the link and its visits: one transaction.
      observeCleanup(t.deps.cleanup, { beforeCommit: ({ phase }) => { if (phase === 'purge') throw new Error('injected failure in purge'); } });
      assert.equal(ran(await t.deps.cleanup.job.run()).status, 'failed');
      assert.deepEqual(await visitLinkIds(db), [purged.id, purged.id, purged.id, purged.id, kept.id, kept.id].sort((a, b) => a - b));

      observeCleanup(t.deps.cleanup, {});
      const run = ran(await t.deps.cleanup.job.run());
      assert.equal(run.purged, 1);
      assert.equal(run.visitsDeleted, 0, 'retention counts only visits past VISITS_RETENTION');
      assert.deepEqual(await visitLinkIds(db), [kept.id, kept.id]);
      assert.deepEqual(await visitIdsAndRanges(db, purged.id), { ids: [], ranges: [] }, 'its visit ranges went too');
      assert.deepEqual(await visitIdsAndRanges(db, kept.id), keptRows);
      const rollup = await db.selectFrom('link_clicks_hourly').select('clicks').where('link_id', '=', purged.id).execute();
      assert.deepEqual(rollup.map((row) => Number(row.clicks)), [4], 'the roll-up stays, like the archived counters');
    } finally {
      await t.close();
    }
  });
});

describe('every analytics table is bounded: visit facts and roll-ups (ADR 0021)', () => {
  const facts = (referrerHost: string): VisitFacts => ({ visitorClass: 'human', referrerHost, browser: 'Firefox', os: 'Linux', device: 'desktop' });
  const hosts = async (t: TestApp) => (await t.deps.database.db.selectFrom('visit_facts').select('referrer_host').orderBy('referrer_host').execute()).map((row) => row.referrer_host);

  test('a set of visit facts goes once no visit uses it, a day after its last use passed VISITS_RETENTION; sets of kept visits stay', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '2', VISITS_RETENTION: '30d' });
    try {
      const now = t.clock.now();
      const cutoff = now - 30 * DAY;
      const link = await linkInState(t.deps, { expiresAt: null });
      const at = (referrerHost: string, visitedAt: number) => ({ ...facts(referrerHost), linkId: link.id, visitedAt, latencyMs: 1 });
      // As a flush writes them, a day's worth of flushes at a time, oldest first.
      const store = visitWriterFor(t.deps.database);
      await store.recordBatch(batchOfVisits([at('a.example', cutoff - 10 * DAY), at('b.example', cutoff - 9 * DAY), at('c.example', cutoff - 8 * DAY), at('kept.example', cutoff - 8 * DAY)]));
      await store.recordBatch(batchOfVisits([at('grace.example', cutoff - 12 * HOUR)]));
      await store.recordBatch(batchOfVisits([at('kept.example', cutoff + HOUR), at('new.example', now)]));
      const events: string[] = [];
      observeCleanup(t.deps.cleanup, { beforeCommit: ({ phase, batch, rows }) => { events.push(`${phase}${batch}:${rows}`); } });

      const run = ran(await t.deps.cleanup.job.run());

      assert.equal(run.status, 'succeeded');
      assert.equal(run.visitsDeleted, 5);
      assert.deepEqual(events.filter((event) => event.startsWith('facts')), ['facts1:2', 'facts2:1']);
      assert.deepEqual(await hosts(t), ['grace.example', 'kept.example', 'new.example'], 'a set whose last use is within a day of the cutoff waits');
      const left = await visitsWithFacts(t.deps.database.db).execute();
      assert.deepEqual(left.map((row) => row.referrer_host), ['kept.example', 'new.example'], 'every visit left still has its facts');
      t.clock.advance(DAY);
      ran(await t.deps.cleanup.job.run());
      assert.deepEqual(await hosts(t), ['kept.example', 'new.example']);
    } finally {
      await t.close();
    }
  });

  test('hourly and daily roll-ups older than ROLLUP_RETENTION are deleted in batches; newer ones and every counter stay', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_BATCH_SIZE: '2', ROLLUP_RETENTION: '30d' });
    try {
      const { db } = t.deps.database;
      const now = t.clock.now();
      const cutoff = now - 30 * DAY;
      const link = await linkInState(t.deps, { expiresAt: null });
      await db.updateTable('links').set({ redirect_count: 9, human_count: 7, bot_count: 2 }).where('id', '=', link.id).execute();
      await setGlobalStats(db, { total: 9, avgMs: 1.5, human: 7, bot: 2, preview: 0 });
      await insertHourlyClicks(db, link.id, cutoff - 2 * HOUR, { human: 3, bot: 1 });
      await insertHourlyClicks(db, link.id, cutoff - HOUR, { human: 1 });
      await insertHourlyClicks(db, link.id, cutoff, { human: 3, bot: 1 });
      await insertBreakdown(db, link.id, cutoff - 2 * DAY, 'referrer', 'news.example', { human: 2 });
      await insertBreakdown(db, link.id, cutoff - 2 * DAY, 'browser', 'Firefox', { human: 2 });
      await insertBreakdown(db, link.id, cutoff, 'referrer', 'news.example', { human: 3, bot: 1 });
      const counters = async () => ({
        link: await db.selectFrom('links').select(['redirect_count', 'human_count', 'bot_count']).where('id', '=', link.id).execute(),
        global: await db.selectFrom('global_stats').selectAll().execute(),
      });
      const before = await counters();
      const events: string[] = [];
      observeCleanup(t.deps.cleanup, { beforeCommit: ({ phase, batch, rows }) => { events.push(`${phase}${batch}:${rows}`); } });

      const run = ran(await t.deps.cleanup.job.run());

      assert.equal(run.status, 'succeeded');
      assert.deepEqual(events.filter((event) => event.startsWith('rollups')), ['rollups1:2', 'rollups2:2', 'rollups3:1']);
      const hourly = await db.selectFrom('link_clicks_hourly').select(['hour_start', 'visitor_class']).orderBy('visitor_class').execute();
      assert.deepEqual(hourly.map((row) => [Number(row.hour_start), row.visitor_class]), [[cutoff, 'bot'], [cutoff, 'human']]);
      const daily = await db.selectFrom('link_breakdown_daily').select(['day_start', 'visitor_class']).orderBy('visitor_class').execute();
      assert.deepEqual(daily.map((row) => [Number(row.day_start), row.visitor_class]), [[cutoff, 'bot'], [cutoff, 'human']]);
      assert.deepEqual(await counters(), before);
    } finally {
      await t.close();
    }
  });
});
