import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Visit, VisitFacts } from '../../src/core/visit-ports.js';
import { addToMean } from '../../src/core/welford.js';
import { batchOfVisits } from '../../src/core/visit-batch.js';
import { OTHER_VALUE } from '../../src/core/breakdown-folding.js';
import { visitWriterFor } from '../../src/storage/visits/visit-writer.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { insertedLink } from '../support/contract-fixtures.js';
import { visitIdsAndRanges, visitsWithFacts } from '../support/visit-rows.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-03-01T23:30:00Z');
const human: VisitFacts = { visitorClass: 'human', referrerHost: 'news.example', browser: 'Firefox', os: 'Linux', device: 'desktop' };
const bot: VisitFacts = { visitorClass: 'bot', referrerHost: null, browser: null, os: null, device: 'bot' };
const preview: VisitFacts = { visitorClass: 'preview', referrerHost: null, browser: null, os: null, device: 'bot' };

const visit = (linkId: number, facts: VisitFacts, visitedAt = T0, latencyMs = 1.5): Visit => ({ linkId, visitedAt, latencyMs, ...facts });

/** Same relative tolerance as test/unit/welford.test.ts, for the same reason. */
function assertClose(actual: number, expected: number): void {
  assert.ok(Math.abs(actual - expected) <= 1e-12 * Math.abs(expected), `${actual} vs ${expected}`);
}

for (const backend of STORE_BACKENDS) {
  describe(`VisitWriter on ${backend.name}`, () => {
    const stores = storesFor(backend);
    const store = () => visitWriterFor(stores.database);
    const linkRow = (id: number) => stores.database.db.selectFrom('links')
      .select(['redirect_count', 'avg_redirect_ms', 'human_count', 'bot_count', 'preview_count'])
      .where('id', '=', id).executeTakeFirstOrThrow();
    const globalRow = () => stores.database.db.selectFrom('global_stats').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    const visitsOf = (id: number) => visitsWithFacts(stores.database.db).where('visits.link_id', '=', id).execute();
    const hourlyOf = (id: number) => stores.database.db.selectFrom('link_clicks_hourly').selectAll().where('link_id', '=', id)
      .orderBy('hour_start').orderBy('visitor_class').execute();
    const dailyOf = (id: number) => stores.database.db.selectFrom('link_breakdown_daily').selectAll().where('link_id', '=', id)
      .orderBy('day_start').orderBy('dimension').orderBy('value').orderBy('visitor_class').execute();

    test('counts add up by class and the mean latency equals Welford one by one, over several batches', async () => {
      const link = await insertedLink(stores.links);
      const batches = [
        [visit(link.id, human, T0, 0.25), visit(link.id, bot, T0, 3.75), visit(link.id, human, T0, 1.125)],
        [visit(link.id, preview, T0, 7.5)],
        Array.from({ length: 50 }, (_, i) => visit(link.id, i % 5 === 0 ? bot : human, T0, 0.1 + i * 0.37)),
      ];
      for (const batch of batches) await store().recordBatch(batchOfVisits(batch));
      const reference = batches.flat().reduce((running, v) => addToMean(running, v.latencyMs), { count: 0, mean: 0 });
      const row = await linkRow(link.id);
      assert.equal(Number(row.redirect_count), 54);
      assert.deepEqual([Number(row.human_count), Number(row.bot_count), Number(row.preview_count)], [42, 11, 1]);
      assertClose(Number(row.avg_redirect_ms), reference.mean);
    });

    test('each visit is a row with its facts and latency, and nothing more', async () => {
      const link = await insertedLink(stores.links);
      await store().recordBatch(batchOfVisits([visit(link.id, human, T0, 2.5), visit(link.id, preview, T0 + 1, 0.5)]));
      const rows = await visitsOf(link.id);
      assert.deepEqual(rows.map((r) => [Number(r.visited_at), r.visitor_class, r.referrer_host, r.browser, r.os, r.device, Number(r.latency_ms)]), [
        [T0, 'human', 'news.example', 'Firefox', 'Linux', 'desktop', 2.5],
        [T0 + 1, 'preview', null, null, null, 'bot', 0.5],
      ]);
    });

    test("a batch's visit rows are stored grouped by link, each link's in arrival order", async () => {
      const [first, second] = [await insertedLink(stores.links), await insertedLink(stores.links)];
      const [low, high] = first.id < second.id ? [first, second] : [second, first];
      // Arrival order interleaves the links; the rows come out link by link, so each link's rows of a flush are one visit range (ADR 0016).
      await store().recordBatch(batchOfVisits([visit(high.id, human, T0), visit(low.id, human, T0 + 1), visit(high.id, bot, T0 + 2), visit(low.id, bot, T0 + 3)]));
      const rows = await stores.database.db.selectFrom('visits').select(['link_id', 'visited_at']).where('link_id', 'in', [low.id, high.id]).orderBy('id').execute();
      assert.deepEqual(rows.map((r) => [Number(r.link_id), Number(r.visited_at)]), [[low.id, T0 + 1], [low.id, T0 + 3], [high.id, T0], [high.id, T0 + 2]]);
    });

    test('a flush writes one visit range per link, from its first to its last visit row, and nothing else in it', async () => {
      const [a, b] = [await insertedLink(stores.links), await insertedLink(stores.links)];
      await store().recordBatch(batchOfVisits([visit(a.id, human), visit(b.id, human), visit(a.id, bot), visit(b.id, bot), visit(a.id, human)]));
      await store().recordBatch(batchOfVisits([visit(a.id, preview)]));
      const [ofA, ofB] = [await visitIdsAndRanges(stores.database.db, a.id), await visitIdsAndRanges(stores.database.db, b.id)];
      assert.deepEqual(ofA.ranges, [[ofA.ids[0], ofA.ids[2]], [ofA.ids[3], ofA.ids[3]]], 'one range per flush');
      assert.deepEqual(ofB.ranges, [[ofB.ids[0], ofB.ids[1]]]);
      assert.equal(ofA.ids[2]! - ofA.ids[0]!, 2, "the first flush's rows of a are side by side");
    });

    test('clicks roll up per UTC hour and class, and per UTC day, dimension, value and class', async () => {
      const link = await insertedLink(stores.links);
      const hour = Math.floor(T0 / HOUR) * HOUR;
      const day = Math.floor(T0 / DAY) * DAY;
      const chrome: VisitFacts = { ...human, browser: 'Chrome', referrerHost: null };
      await store().recordBatch(batchOfVisits([visit(link.id, human), visit(link.id, human, T0 + 60_000), visit(link.id, bot), visit(link.id, chrome, T0 + HOUR)]));
      await store().recordBatch(batchOfVisits([visit(link.id, human, T0 + 5_000)]));
      assert.deepEqual((await hourlyOf(link.id)).map((r) => [Number(r.hour_start), r.visitor_class, Number(r.clicks)]), [
        [hour, 'bot', 1],
        [hour, 'human', 3],
        [hour + HOUR, 'human', 1], // 23:30 + 1 h is the next UTC day too
      ]);
      assert.deepEqual((await dailyOf(link.id)).map((r) => [Number(r.day_start), r.dimension, r.value, r.visitor_class, Number(r.clicks)]), [
        [day, 'browser', 'Firefox', 'human', 3],
        [day, 'device', 'bot', 'bot', 1],
        [day, 'device', 'desktop', 'human', 3],
        [day, 'os', 'Linux', 'human', 3],
        [day, 'referrer', 'news.example', 'human', 3],
        [day + DAY, 'browser', 'Chrome', 'human', 1],
        [day + DAY, 'device', 'desktop', 'human', 1],
        [day + DAY, 'os', 'Linux', 'human', 1],
      ], 'unknown values (null) add no breakdown row');
    });

    test('the global row counts every redirect, by class, with the mean merged the same way', async () => {
      const before = await globalRow();
      const a = await insertedLink(stores.links);
      const b = await insertedLink(stores.links);
      const batch = [visit(a.id, human, T0, 1), visit(b.id, bot, T0, 2), visit(b.id, preview, T0, 4.5)];
      await store().recordBatch(batchOfVisits(batch));
      const after = await globalRow();
      const reference = batch.reduce((running, v) => addToMean(running, v.latencyMs), { count: Number(before.total_redirects), mean: Number(before.avg_latency_ms) });
      assert.equal(Number(after.total_redirects), Number(before.total_redirects) + 3);
      assert.equal(Number(after.human_redirects), Number(before.human_redirects) + 1);
      assert.equal(Number(after.bot_redirects), Number(before.bot_redirects) + 1);
      assert.equal(Number(after.preview_redirects), Number(before.preview_redirects) + 1);
      assertClose(Number(after.avg_latency_ms), reference.mean);
    });

    test('a link purged since its redirect is skipped without an error; the rest of the batch and the global row count', async () => {
      const purged = await insertedLink(stores.links);
      const kept = await insertedLink(stores.links);
      await stores.database.db.deleteFrom('links').where('id', '=', purged.id).execute();
      const before = await globalRow();
      await store().recordBatch(batchOfVisits([visit(purged.id, human), visit(kept.id, human), visit(purged.id, bot)]));
      assert.deepEqual([await visitsOf(purged.id), await hourlyOf(purged.id), await dailyOf(purged.id)], [[], [], []]);
      assert.equal(Number((await linkRow(kept.id)).redirect_count), 1);
      assert.equal((await visitsOf(kept.id)).length, 1);
      assert.equal(Number((await globalRow()).total_redirects), Number(before.total_redirects) + 3, 'the redirects did happen');
    });

    test('a link soft-deleted since its redirect keeps the clicks it had while live', async () => {
      const link = await insertedLink(stores.links);
      await stores.links.markLinkDeleted(link.id, T0);
      await store().recordBatch(batchOfVisits([visit(link.id, human)]));
      assert.equal(Number((await linkRow(link.id)).redirect_count), 1);
    });

    describe('distinct values per link, day and dimension are capped (ADR 0021)', () => {
      const withHost = (referrerHost: string): VisitFacts => ({ ...human, referrerHost });
      const floodOf = (linkId: number, from: number, count: number, at = T0) =>
        Array.from({ length: count }, (_, i) => visit(linkId, withHost(`h${from + i}.example.org`), at));
      const referrers = async (id: number, dayStart: number) => {
        const clicks = new Map<string, number>();
        for (const row of await dailyOf(id)) {
          if (row.dimension === 'referrer' && Number(row.day_start) === dayStart) clicks.set(row.value, (clicks.get(row.value) ?? 0) + Number(row.clicks));
        }
        return clicks;
      };
      const sum = (clicks: Map<string, number>) => [...clicks.values()].reduce((a, b) => a + b, 0);
      const day = T0 - (T0 % DAY);

      test("past 100 values the rest of the day is one '(other)' row, the most clicked values kept, and every click counts", async () => {
        const link = await insertedLink(stores.links);
        const real = Array.from({ length: 5 }, () => visit(link.id, withHost('news.example')));
        await store().recordBatch(batchOfVisits([...floodOf(link.id, 0, 150), ...real]));
        const clicks = await referrers(link.id, day);
        assert.equal(clicks.size, 101);
        assert.equal(clicks.get('news.example'), 5);
        assert.equal(clicks.get(OTHER_VALUE), 51);
        assert.equal(sum(clicks), 155);
        const browsers = (await dailyOf(link.id)).filter((row) => row.dimension === 'browser');
        assert.deepEqual(browsers.map((row) => [row.value, Number(row.clicks)]), [['Firefox', 155]]);
        assert.equal(Number((await linkRow(link.id)).redirect_count), 155);
      });

      test('a value the day holds keeps counting past the cap, a new one folds, and the next day starts afresh', async () => {
        const link = await insertedLink(stores.links);
        await store().recordBatch(batchOfVisits(floodOf(link.id, 0, 100)));
        await store().recordBatch(batchOfVisits([...floodOf(link.id, 0, 2), ...floodOf(link.id, 500, 3), ...floodOf(link.id, 500, 1, T0 + DAY)]));
        const today = await referrers(link.id, day);
        assert.equal(today.size, 101);
        assert.deepEqual([today.get('h0.example.org'), today.get('h1.example.org'), today.get(OTHER_VALUE), today.has('h500.example.org')], [2, 2, 3, false]);
        assert.deepEqual([...await referrers(link.id, day + DAY)], [['h500.example.org', 1]]);
      });

      test('in a flush over more links than one statement updates, each link gets its own counters, a purged one none, and a full day still folds', async () => {
        const full = await insertedLink(stores.links);
        await store().recordBatch(batchOfVisits(floodOf(full.id, 0, 100)));
        const others = [];
        for (let i = 0; i < 119; i++) others.push(await insertedLink(stores.links));
        const purged = others[60]!;
        await stores.database.db.deleteFrom('links').where('id', '=', purged.id).execute();
        const visits = others.flatMap((link, i) => Array.from({ length: 1 + (i % 3) }, () => visit(link.id, i % 2 === 0 ? human : bot)));
        await store().recordBatch(batchOfVisits([...visits, ...floodOf(full.id, 500, 1)]));
        for (const [i, link] of others.entries()) {
          if (link === purged) continue;
          const row = await linkRow(link.id);
          assert.deepEqual([Number(row.redirect_count), Number(row.human_count), Number(row.bot_count)], [1 + (i % 3), i % 2 === 0 ? 1 + (i % 3) : 0, i % 2 === 0 ? 0 : 1 + (i % 3)], `link ${i}`);
        }
        assert.deepEqual(await visitsOf(purged.id), []);
        assert.equal(Number((await linkRow(full.id)).redirect_count), 101);
        const clicks = await referrers(full.id, day);
        assert.deepEqual([clicks.size, clicks.get(OTHER_VALUE), clicks.has('h500.example.org')], [101, 1, false], 'the link past 100 clicks had its day read');
      });

      test('flushes of a few new values each fill the cap one after the other and then fold', async () => {
        const link = await insertedLink(stores.links);
        for (let flush = 0; flush < 12; flush++) await store().recordBatch(batchOfVisits(floodOf(link.id, 3000 + flush * 10, 10)));
        const clicks = await referrers(link.id, day);
        assert.equal(clicks.size, 101);
        assert.equal(clicks.get(OTHER_VALUE), 20);
        assert.equal(clicks.get('h3099.example.org'), 1);
        assert.equal(clicks.has('h3100.example.org'), false);
      });

      test("a folded visit's facts hold '(other)': a flood of hosts adds no facts row per host", async () => {
        const link = await insertedLink(stores.links);
        const factsRows = async () => Number((await stores.database.db.selectFrom('visit_facts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
        const before = await factsRows();
        await store().recordBatch(batchOfVisits(floodOf(link.id, 7000, 300)));
        const rows = await visitsOf(link.id);
        assert.equal(rows.length, 300);
        assert.equal(rows.filter((row) => row.referrer_host === OTHER_VALUE).length, 200);
        const added = await factsRows() - before;
        assert.ok(added <= 101, `${added} facts rows for 300 hosts: one per kept host and at most one '(other)'`);
      });

      test('two flushes at once take no more than the places left under the cap, and lose no click', async () => {
        const link = await insertedLink(stores.links);
        await store().recordBatch(batchOfVisits(floodOf(link.id, 0, 40)));
        await Promise.all([store().recordBatch(batchOfVisits(floodOf(link.id, 1000, 80))), store().recordBatch(batchOfVisits(floodOf(link.id, 2000, 80)))]);
        const clicks = await referrers(link.id, day);
        assert.equal(clicks.size, 101);
        assert.equal(sum(clicks), 200);
        assert.equal((await visitsOf(link.id)).length, 200);
      });
    });

    test('a batch of more visits than one statement holds is written whole', async () => {
      const links = [await insertedLink(stores.links), await insertedLink(stores.links)];
      const visits = Array.from({ length: 2_500 }, (_, i) => visit(links[i % 2]!.id, human, T0 + i * 1_000));
      await store().recordBatch(batchOfVisits(visits));
      for (const link of links) {
        assert.equal(Number((await linkRow(link.id)).redirect_count), 1_250);
        assert.equal((await visitsOf(link.id)).length, 1_250);
      }
    });
  });
}
