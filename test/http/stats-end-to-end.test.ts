import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink } from '../support/owned-links.js';
import { createTestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';

const HUMAN_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PREVIEW_UA = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

describe('statistics from real redirects', () => {
  test('redirects, once flushed, show in GET /api/stats, the link JSON and the link\'s series and breakdowns, by class', async (context) => {
    const t = await createTestApp(context);
    const owner = await registerUser(t.app);
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/end-to-end' });
    const visits: Array<[string, string | undefined]> = [
      [HUMAN_UA, 'https://news.example/item?id=1'], [HUMAN_UA, 'https://news.example/other'], [HUMAN_UA, undefined],
      [BOT_UA, undefined], [PREVIEW_UA, 'https://chat.example/room'],
    ];
    for (const [userAgent, referer] of visits) {
      const response = await t.app.inject({ url: `/${link.shortCode}`, headers: { 'user-agent': userAgent, ...(referer && { referer }) } });
      assert.equal(response.statusCode, 301);
    }
    await (t.deps.analytics ?? assert.fail('analytics are on by default')).flusher.flushNow();

    const global = (await t.app.inject({ url: '/api/stats' })).json();
    assert.deepEqual([global.totalLinks, global.totalRedirects, global.redirectsByClass], [1, 5, { human: 3, bot: 1, preview: 1 }]);
    assert.ok(global.avgLatencyMs > 0);

    const json = (await t.app.inject({ url: `/api/urls/${link.id}`, headers: bearer(owner.token) })).json();
    assert.deepEqual([json.redirectCount, json.humanCount], [5, 3]);

    const stats = (await t.app.inject({ url: `/api/urls/${link.id}/stats?interval=hour`, headers: bearer(owner.token) })).json();
    assert.deepEqual(stats.totals, { total: 5, human: 3, bot: 1, preview: 1, uniqueVisitors: 1 }, 'one person (one address and browser) clicked three times');
    assert.deepEqual(stats.series.at(-1).clicks, { total: 5, human: 3, bot: 1, preview: 1 }, 'this hour\'s bucket');
    assert.equal(stats.series.at(-1).uniqueVisitors, 1);
    assert.deepEqual(stats.breakdowns.referrers, [
      { value: 'news.example', clicks: { total: 2, human: 2, bot: 0, preview: 0 } },
      { value: null, clicks: { total: 2, human: 1, bot: 1, preview: 0 } },
      { value: 'chat.example', clicks: { total: 1, human: 0, bot: 0, preview: 1 } },
    ]);
  });
});
