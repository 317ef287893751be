import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { KyselyStatsReadStore } from '../../src/storage/stats-read-store.js';
import { migrateToLatest } from '../../src/storage/migrations/index.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { insertedLink, LATE_TIME } from '../support/contract-fixtures.js';
import { BREAKDOWN_DIMENSIONS } from '../../src/core/visit-ports.js';
import { traceQueries } from '../support/trace-queries.js';
import { DAY, HOUR, insertBreakdown, insertHourlyClicks, insertVisits, setGlobalStats } from '../support/visit-rows.js';

/** A UTC midnight above 2^41, so that times past 2^32 are proven exact. */
const T0 = Math.floor(LATE_TIME / DAY) * DAY + 10 * DAY;
const counts = (human: number, bot: number, preview: number) => ({ total: human + bot + preview, human, bot, preview });

for (const backend of STORE_BACKENDS) {
  describe(`StatsReadStore on ${backend.name}`, () => {
    const stores = storesFor(backend);
    const read = () => new KyselyStatsReadStore(stores.database.db);
    beforeEach(async () => {
      const { db } = stores.database;
      for (const table of ['visits', 'link_clicks_hourly', 'link_breakdown_daily', 'links'] as const) await db.deleteFrom(table).execute();
      await setGlobalStats(db, { total: 0, avgMs: 0, human: 0, bot: 0, preview: 0 });
    });

    test('global stats start at zero', async () => {
      assert.deepEqual(await read().findGlobalStats(T0), { totalLinks: 0, totalRedirects: 0, avgLatencyMs: 0, redirects: counts(0, 0, 0) });
    });

    test('totalLinks counts ACTIVE links not past their expiry at now; the rest come from the global row, exact past 2^32', async () => {
      const { db } = stores.database;
      const live = [await insertedLink(stores.links), await insertedLink(stores.links, { expiresAt: T0 + 1 })];
      const notLive = [
        await insertedLink(stores.links, { expiresAt: T0 }), // expiry is the instant it stops
        await insertedLink(stores.links, { expiresAt: T0 - HOUR }), // past expiry, not marked yet
        await insertedLink(stores.links), await insertedLink(stores.links),
      ];
      await db.updateTable('links').set({ status: 'EXPIRED' }).where('id', '=', notLive[2]!.id).execute();
      await db.updateTable('links').set({ status: 'DELETED', deleted_at: T0 }).where('id', '=', notLive[3]!.id).execute();
      const big = 2 ** 40 + 3;
      await setGlobalStats(db, { total: big + 30, avgMs: 2.75, human: big, bot: 20, preview: 10 });
      // Raw visits are never counted: these contradict the counters and must not show.
      await insertVisits(db, live[0]!.id, T0 - DAY, 5);
      assert.deepEqual(await read().findGlobalStats(T0), {
        totalLinks: live.length, totalRedirects: big + 30, avgLatencyMs: 2.75, redirects: counts(big, 20, 10),
      });
    });

    test('hourly buckets: the range is [from, to), one link only, split by class, oldest first; empty hours are absent', async () => {
      const { db } = stores.database;
      const [link, other] = [await insertedLink(stores.links), await insertedLink(stores.links)];
      await insertHourlyClicks(db, link.id, T0 - HOUR, { human: 100 }); // before the range
      await insertHourlyClicks(db, link.id, T0, { human: 3, bot: 1 });
      await insertHourlyClicks(db, link.id, T0 + 5 * HOUR, { preview: 2 ** 33 });
      await insertHourlyClicks(db, link.id, T0 + 6 * HOUR, { human: 100 }); // at `to`: excluded
      await insertHourlyClicks(db, other.id, T0 + HOUR, { human: 50 });
      await insertVisits(db, link.id, T0 + HOUR, 7);
      const buckets = await read().listClickBuckets({ linkId: link.id, from: T0, to: T0 + 6 * HOUR, interval: 'hour' });
      assert.deepEqual(buckets, [
        { start: T0, clicks: counts(3, 1, 0), uniqueVisitors: 0 },
        { start: T0 + 5 * HOUR, clicks: counts(0, 0, 2 ** 33), uniqueVisitors: 0 },
      ]);
    });

    test('daily buckets sum the hours of each UTC day', async () => {
      const { db } = stores.database;
      const link = await insertedLink(stores.links);
      await insertHourlyClicks(db, link.id, T0, { human: 1, bot: 2 }, 1);
      await insertHourlyClicks(db, link.id, T0 + 23 * HOUR, { human: 4, preview: 1 }, 2);
      await insertHourlyClicks(db, link.id, T0 + DAY + 2 * HOUR, { bot: 7 });
      await insertHourlyClicks(db, link.id, T0 + 3 * DAY, { human: 9 });
      const buckets = await read().listClickBuckets({ linkId: link.id, from: T0, to: T0 + 3 * DAY, interval: 'day' });
      assert.deepEqual(buckets, [
        { start: T0, clicks: counts(5, 2, 1), uniqueVisitors: 3 },
        { start: T0 + DAY, clicks: counts(0, 7, 0), uniqueVisitors: 0 },
      ]);
    });

    test('top values: per dimension, over the days the range touches, most clicks first, ties by value, at most `limit`; null is the days\' clicks without a known value', async () => {
      const { db } = stores.database;
      const [link, other] = [await insertedLink(stores.links), await insertedLink(stores.links)];
      // The days' clicks, from the hourly roll-up; those outside the days do not count.
      await insertHourlyClicks(db, link.id, T0 + HOUR, { human: 14, bot: 1 });
      await insertHourlyClicks(db, link.id, T0 + DAY + HOUR, { human: 2, preview: 3 });
      await insertHourlyClicks(db, link.id, T0 - HOUR, { human: 99 });
      await insertHourlyClicks(db, link.id, T0 + 2 * DAY, { human: 99 });
      await insertBreakdown(db, link.id, T0, 'referrer', 'news.example', { human: 5, bot: 1 });
      await insertBreakdown(db, link.id, T0 + DAY, 'referrer', 'news.example', { human: 2, preview: 3 });
      await insertBreakdown(db, link.id, T0, 'referrer', 'b.example', { human: 1 });
      await insertBreakdown(db, link.id, T0, 'referrer', 'a.example', { human: 1 });
      await insertBreakdown(db, link.id, T0 - DAY, 'referrer', 'old.example', { human: 99 }); // before the range's first day
      await insertBreakdown(db, link.id, T0 + 2 * DAY, 'referrer', 'late.example', { human: 99 }); // the day of `to`: excluded
      await insertBreakdown(db, link.id, T0, 'browser', 'Firefox', { human: 2, bot: 1 });
      await insertBreakdown(db, link.id, T0 + DAY, 'device', 'mobile', { preview: 3 });
      await insertBreakdown(db, other.id, T0, 'os', 'Linux', { human: 8 });
      await insertBreakdown(db, link.id, T0, 'city', 'DE\tBerlin\tBerlin', { human: 2 });
      for (const [served, clicks] of [['route:0', { human: 3 }], ['route:1', { bot: 1 }], ['variant:0', { human: 1 }], ['variant:1', { human: 2 }]] as const) {
        await insertBreakdown(db, link.id, T0, 'destination', served, clicks);
      }
      // A range starting mid-day still gets that whole day's breakdown: it is kept per day.
      const top = await read().listTopValues({ linkId: link.id, from: T0 + 3 * HOUR, to: T0 + 2 * DAY, interval: 'hour' }, 3);
      assert.deepEqual(top, {
        referrer: [
          { value: 'news.example', clicks: counts(7, 1, 3) },
          { value: null, clicks: counts(7, 0, 0) },
          { value: 'a.example', clicks: counts(1, 0, 0) },
        ],
        browser: [{ value: null, clicks: counts(14, 0, 3) }, { value: 'Firefox', clicks: counts(2, 1, 0) }],
        os: [{ value: null, clicks: counts(16, 1, 3) }],
        device: [{ value: null, clicks: counts(16, 1, 0) }, { value: 'mobile', clicks: counts(0, 0, 3) }],
        country: [{ value: null, clicks: counts(16, 1, 3) }],
        city: [{ value: 'DE\tBerlin\tBerlin', clicks: counts(2, 0, 0) }], // a city is listed only when known
        destination: [ // listed only when served, every route and variant a link may hold whatever `limit`
          { value: 'route:0', clicks: counts(3, 0, 0) }, { value: 'variant:1', clicks: counts(2, 0, 0) },
          { value: 'route:1', clicks: counts(0, 1, 0) }, { value: 'variant:0', clicks: counts(1, 0, 0) },
        ],
      });
    });

    test('top values among thousands of distinct ones: the most clicked, ties bytewise on both databases, null last among its equals', async () => {
      const { db } = stores.database;
      const link = await insertedLink(stores.links);
      // 3,000 referrers of one click each over three days, and a few that rank above them.
      const rows = Array.from({ length: 3_000 }, (_, i) => ({
        link_id: link.id, day_start: T0 + (i % 3) * DAY, dimension: 'referrer' as const, value: `host-${String(i).padStart(4, '0')}.example`,
        visitor_class: 'human' as const, clicks: 1,
      }));
      for (let i = 0; i < rows.length; i += 1_000) await db.insertInto('link_breakdown_daily').values(rows.slice(i, i + 1_000)).execute();
      await insertBreakdown(db, link.id, T0, 'referrer', 'b.example', { human: 3, bot: 1 });
      await insertBreakdown(db, link.id, T0 + DAY, 'referrer', 'b.example', { preview: 2 });
      await insertBreakdown(db, link.id, T0 + 2 * DAY, 'referrer', 'B.example', { human: 6 });
      await insertBreakdown(db, link.id, T0, 'referrer', '(other)', { human: 5, bot: 1 });
      await insertBreakdown(db, link.id, T0 + 3 * DAY, 'referrer', 'after.example', { human: 50 }); // past the range
      // 3,018 known clicks; 6 clicks without a referrer tie with B.example, b.example and (other).
      await insertHourlyClicks(db, link.id, T0, { human: 3_012, bot: 2, preview: 2 });
      await insertHourlyClicks(db, link.id, T0 + 2 * DAY + HOUR, { human: 8 });

      const top = await read().listTopValues({ linkId: link.id, from: T0, to: T0 + 3 * DAY, interval: 'day' }, 5);
      assert.deepEqual(top.referrer, [
        { value: '(other)', clicks: counts(5, 1, 0) },
        { value: 'B.example', clicks: counts(6, 0, 0) },
        { value: 'b.example', clicks: counts(3, 1, 2) },
        { value: null, clicks: counts(6, 0, 0) },
        { value: 'host-0000.example', clicks: counts(1, 0, 0) },
      ]);
    });

    test('top values take from the database only the rows the answer shows, however many distinct values there are', async () => {
      const { db } = stores.database;
      const link = await insertedLink(stores.links);
      const rows = Array.from({ length: 2_000 }, (_, i) => ({
        link_id: link.id, day_start: T0 + (i % 2) * DAY, dimension: i % 2 === 0 ? 'referrer' as const : 'browser' as const,
        value: `value-${i}`, visitor_class: i % 3 === 0 ? 'bot' as const : 'human' as const, clicks: 1 + (i % 7),
      }));
      for (let i = 0; i < rows.length; i += 1_000) await db.insertInto('link_breakdown_daily').values(rows.slice(i, i + 1_000)).execute();
      const limit = 10;
      const queries = await traceQueries(stores.database, (traced) =>
        new KyselyStatsReadStore(traced).listTopValues({ linkId: link.id, from: T0, to: T0 + 2 * DAY, interval: 'day' }, limit));
      const received = queries.reduce((sum, query) => sum + query.rows, 0);
      // The top values of each dimension, one sum per dimension and per class of the days' clicks.
      assert.ok(received <= BREAKDOWN_DIMENSIONS.length * (limit + 1) + 3, `${received} rows: ${queries.map((query) => `${query.rows} ← ${query.sql}`).join('\n')}`);
    });

    test('every read of the breakdown searches the link\'s days through its key, never a whole table', async () => {
      const link = await insertedLink(stores.links);
      const queries = await traceQueries(stores.database, (traced) =>
        new KyselyStatsReadStore(traced).listTopValues({ linkId: link.id, from: T0, to: T0 + 30 * DAY, interval: 'day' }, 10));
      const breakdownReads = queries.filter((query) => query.sql.includes('link_breakdown_daily'));
      assert.ok(breakdownReads.length > 0);
      for (const { sql, plan } of breakdownReads) {
        // SQLite holds the rows in the key (link, dimension, day, …): one contiguous stretch per dimension.
        const searched = backend.name === 'sqlite'
          ? /^SEARCH link_breakdown_daily USING PRIMARY KEY \(link_id=\? AND dimension=\? AND day_start>\? AND day_start<\?\)$/m
          : /Index (Only )?Scan using link_breakdown_daily_pkey on link_breakdown_daily[\s\S]*Index Cond: \(\(link_id = [^)]*\) AND [\s\S]*\(day_start >= [^)]*\) AND \(day_start < [^)]*\)\)/;
        assert.match(plan, searched, `${sql}\n${plan}`);
        assert.doesNotMatch(plan, /\bSCAN link_breakdown_daily\b|Seq Scan/, `${sql}\n${plan}`);
      }
    });

    test('migration 011 keeps the breakdown rows written before it, and the flush\'s upsert still adds to them', async (context) => {
      const database = await backend.open(context, '009_visit_facts');
        const { db } = database;
        await insertHourlyClicks(db, 7, T0, { human: 9, bot: 2 });
        await insertBreakdown(db, 7, T0, 'referrer', 'kept.example', { human: 4, bot: 2 });
        await insertBreakdown(db, 7, T0, 'os', 'Linux', { human: 9 });
        await migrateToLatest(db, database.dialect);

        const upsert = { link_id: 7, day_start: T0, dimension: 'referrer' as const, value: 'kept.example', visitor_class: 'human' as const, clicks: 1 };
        await db.insertInto('link_breakdown_daily').values(upsert)
          .onConflict((oc) => oc.columns(['link_id', 'day_start', 'dimension', 'value', 'visitor_class']).doUpdateSet({ clicks: sql`link_breakdown_daily.clicks + excluded.clicks` }))
          .execute();
        const top = await new KyselyStatsReadStore(db).listTopValues({ linkId: 7, from: T0, to: T0 + DAY, interval: 'day' }, 10);
        assert.deepEqual(top.referrer, [{ value: 'kept.example', clicks: counts(5, 2, 0) }, { value: null, clicks: counts(4, 0, 0) }]);
        assert.deepEqual(top.os, [{ value: 'Linux', clicks: counts(9, 0, 0) }, { value: null, clicks: counts(0, 2, 0) }]);
    });

    test('a link without clicks in the range has empty breakdowns', async () => {
      const link = await insertedLink(stores.links);
      await insertHourlyClicks(stores.database.db, link.id, T0 - HOUR, { human: 1 });
      const top = await read().listTopValues({ linkId: link.id, from: T0, to: T0 + DAY, interval: 'day' }, 10);
      assert.deepEqual(top, { referrer: [], browser: [], os: [], device: [], country: [], city: [], destination: [] });
    });
  });
}
