import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { createLink, iso } from '../support/owned-links.js';
import { createCallers, type Callers } from '../support/callers.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer } from '../support/users.js';
import { DAY, HOUR, insertBreakdown, insertHourlyClicks, setGlobalStats } from '../support/visit-rows.js';
import { suiteScope } from '../support/teardown.js';

const counts = (human: number, bot: number, preview: number) => ({ total: human + bot + preview, human, bot, preview });

describe('statistics: GET /api/stats and GET …/stats of one link', () => {
  let t: TestApp;
  let c: Callers;
  let link: { id: number; shortCode: string };
  let now: number;

  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    now = t.clock.now();
    c = await createCallers(t.app);
    link = await createLink(t.app, c.owner.token, { url: 'https://example.com/counted', workspaceId: c.team });
    const { db } = t.deps.database;
    await insertHourlyClicks(db, link.id, now - 2 * DAY + 3 * HOUR, { human: 4, bot: 1 }, 3);
    await insertHourlyClicks(db, link.id, now - 2 * DAY + 5 * HOUR, { human: 2, preview: 3 }, 1);
    await insertHourlyClicks(db, link.id, now - HOUR, { bot: 6 });
    await insertBreakdown(db, link.id, now - 2 * DAY, 'referrer', 'news.example', { human: 6, preview: 3 });
    await insertBreakdown(db, link.id, now - DAY, 'browser', 'Firefox', { bot: 6 });
    await insertBreakdown(db, link.id, now - 2 * DAY, 'device', 'mobile', { human: 6 });
  });

  const appStats = (query = '') => `/api/urls/${link.id}/stats${query}`;
  const v1Stats = (workspaceId = c.team, query = '') => `/api/v1/workspaces/${workspaceId}/links/${link.shortCode}/stats${query}`;
  const get = (url: string, authorization?: string) =>
    t.app.inject({ method: 'GET', url, headers: authorization === undefined ? {} : bearer(authorization) } satisfies InjectOptions);

  test('GET /api/stats is public: live links, the global counters and the split by class', async () => {
    await setGlobalStats(t.deps.database.db, { total: 18, avgMs: 1.5, human: 6, bot: 7, preview: 5 });
    await createLink(t.app, c.owner.token, { url: 'https://example.com/soon-gone', expiresAt: iso(now + HOUR) });
    const deleted = await createLink(t.app, c.owner.token, { url: 'https://example.com/deleted' });
    await t.app.inject({ method: 'DELETE', url: `/api/urls/${deleted.id}`, headers: bearer(c.owner.token) });
    t.clock.advance(2 * HOUR);
    try {
      for (const authorization of [undefined, c.owner.token]) {
        const response = await get('/api/stats', authorization);
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(response.json(), { totalLinks: 1, totalRedirects: 18, avgLatencyMs: 1.5, redirectsByClass: { human: 6, bot: 7, preview: 5 } });
      }
    } finally {
      t.clock.set(now);
    }
  });

  test('the owner gets a link\'s daily series (the 30 days to today by default, zeros included) and its top values by class', async () => {
    const response = await get(appStats(), c.owner.token);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.linkId, link.id);
    // The last bucket is today's (the clock stands at midnight): to is the end of the bucket holding now.
    assert.deepEqual([body.from, body.to, body.interval], [iso(now - 29 * DAY), iso(now + DAY), 'day']);
    assert.equal(body.series.length, 30);
    assert.deepEqual(body.series.filter((bucket: { clicks: { total: number } }) => bucket.clicks.total > 0), [
      { start: iso(now - 2 * DAY), clicks: counts(6, 1, 3), uniqueVisitors: 4 },
      { start: iso(now - DAY), clicks: counts(0, 6, 0), uniqueVisitors: 0 },
    ]);
    assert.deepEqual(body.totals, { ...counts(6, 7, 3), uniqueVisitors: 4 });
    assert.deepEqual(body.breakdowns, {
      referrers: [{ value: 'news.example', clicks: counts(6, 0, 3) }, { value: null, clicks: counts(0, 7, 0) }],
      browsers: [{ value: null, clicks: counts(6, 1, 3) }, { value: 'Firefox', clicks: counts(0, 6, 0) }],
      oses: [{ value: null, clicks: counts(6, 7, 3) }],
      devices: [{ value: null, clicks: counts(0, 7, 3) }, { value: 'mobile', clicks: counts(6, 0, 0) }],
    });
  });

  test('the v1 route answers the same figures in snake_case, to the owner\'s JWT and to the workspace\'s API key', async () => {
    const app = (await get(appStats(), c.owner.token)).json();
    for (const authorization of [c.owner.token, c.teamKey]) {
      const response = await get(v1Stats(), authorization);
      assert.equal(response.statusCode, 200, response.body);
      const { short_code, ...rest } = response.json();
      assert.equal(short_code, link.shortCode);
      const { linkId, ...same } = app;
      assert.equal(linkId, link.id);
      assert.deepEqual(rest, same);
    }
  });

  test('hourly buckets over an explicit range; from is rounded down and to up to whole hours', async () => {
    const from = iso(now - 2 * DAY + 2 * HOUR + 59 * 60_000);
    const to = iso(now - 2 * DAY + 5 * HOUR + 1);
    const response = await get(appStats(`?interval=hour&from=${from}&to=${to}`), c.owner.token);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.deepEqual([body.from, body.to], [iso(now - 2 * DAY + 2 * HOUR), iso(now - 2 * DAY + 6 * HOUR)]);
    assert.deepEqual(body.series.map((bucket: { clicks: { total: number } }) => bucket.clicks.total), [0, 5, 0, 5]);
    assert.deepEqual(body.series[1], { start: iso(now - 2 * DAY + 3 * HOUR), clicks: counts(4, 1, 0), uniqueVisitors: 3 });
    assert.deepEqual(body.series.map((bucket: { uniqueVisitors: number }) => bucket.uniqueVisitors), [0, 3, 0, 1], 'an hour counts the visitors first seen in it');
    assert.deepEqual(body.totals, { ...counts(6, 1, 3), uniqueVisitors: 4 });
  });

  test('a plain member of the link\'s workspace may read its statistics, like the link itself', async () => {
    assert.equal((await get(appStats(), c.member.token)).statusCode, 200);
    assert.equal((await get(v1Stats(), c.member.token)).statusCode, 200);
  });

  test('other users, members of other workspaces and unknown ids get 404 link_not_found, revealing nothing', async () => {
    for (const [url, authorization] of [
      [appStats(), c.stranger.token], [appStats(), c.outsider.token], [`/api/urls/999999/stats`, c.owner.token],
      [v1Stats(c.stranger.personalWorkspaceId), c.stranger.token], [v1Stats(c.owner.personalWorkspaceId), c.foreignKey],
    ] as const) {
      const response = await get(url, authorization);
      assert.equal(response.statusCode, 404, `${url}: ${response.body}`);
      assert.equal(response.json().code, 'link_not_found', url);
      assert.ok(!response.body.includes('news.example') && !response.body.includes(link.shortCode), `${url} leaks nothing`);
    }
  });

  test('on v1, non-members and API keys of another workspace get 404 for the workspace', async () => {
    for (const authorization of [c.stranger.token, c.foreignKey]) {
      const response = await get(v1Stats(), authorization);
      assert.equal(response.statusCode, 404, response.body);
      assert.ok(!response.body.includes('news.example'));
    }
  });

  test('anonymous callers get 401 on both link routes; API keys get 401 on the app route (JWT only)', async () => {
    for (const url of [appStats(), v1Stats()]) assert.equal((await get(url)).statusCode, 401, url);
    assert.equal((await get(appStats(), c.teamKey)).statusCode, 401);
  });

  test('bad input is a 400 problem: reversed or empty range, too many buckets, unknown interval or parameter, unreadable dates', async () => {
    const cases: Array<[string, string]> = [
      [`?from=${iso(now)}&to=${iso(now - DAY)}`, 'stats_range_invalid'],
      [`?from=${iso(now)}&to=${iso(now)}`, 'stats_range_invalid'],
      [`?interval=hour&from=${iso(now - 32 * DAY)}&to=${iso(now)}`, 'stats_range_invalid'],
      [`?interval=day&from=${iso(now - 400 * DAY)}&to=${iso(now)}`, 'stats_range_invalid'],
      [`?from=1960-01-01T00:00:00Z&to=${iso(now)}`, 'stats_range_invalid'],
      ['?interval=week', 'validation_failed'],
      ['?from=yesterday', 'validation_failed'],
      ['?group=referrer', 'validation_failed'],
    ];
    for (const [query, code] of cases) {
      for (const [url, authorization] of [[appStats(query), c.owner.token], [v1Stats(c.team, query), c.teamKey]] as const) {
        const response = await get(url, authorization);
        assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
        assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8', url);
        assert.equal(response.json().code, code, url);
      }
    }
    assert.equal((await get(appStats(`?interval=hour&from=${iso(now - 31 * DAY)}&to=${iso(now)}`), c.owner.token)).json().series.length, 31 * 24, 'the limit itself is allowed');
  });

  test('the link JSON carries the counters: redirectCount, avgRedirectMs, humanCount, destinationStatus, lastCheckedAt (and snake_case on v1)', async () => {
    await t.deps.database.db.updateTable('links').set({
      redirect_count: 16, avg_redirect_ms: 0.75, human_count: 6, bot_count: 7, preview_count: 3, destination_status: 200, last_checked_at: now - HOUR,
    }).where('id', '=', link.id).execute();
    const app = (await get(`/api/urls/${link.id}`, c.owner.token)).json();
    assert.deepEqual([app.redirectCount, app.avgRedirectMs, app.humanCount, app.destinationStatus, app.lastCheckedAt], [16, 0.75, 6, 200, iso(now - HOUR)]);
    const v1 = (await get(`/api/v1/workspaces/${c.team}/links/${link.shortCode}`, c.teamKey)).json();
    assert.deepEqual([v1.redirect_count, v1.avg_redirect_ms, v1.human_count, v1.destination_status, v1.last_checked_at], [16, 0.75, 6, 200, iso(now - HOUR)]);
    const fresh = (await get(`/api/urls/${(await createLink(t.app, c.owner.token, { url: 'https://example.com/fresh' })).id}`, c.owner.token)).json();
    assert.deepEqual([fresh.redirectCount, fresh.avgRedirectMs, fresh.humanCount, fresh.destinationStatus, fresh.lastCheckedAt], [0, 0, 0, null, null]);
  });
});
