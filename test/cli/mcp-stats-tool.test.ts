import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { callTool, connectMcp, startInstanceWithKey, textOf, type InstanceWithKey, type McpSession } from '../support/mcp-client.js';
import { suiteScope } from '../support/teardown.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

interface StatsJson {
  from: string; to: string;
  totals: { total: number; human: number; bot: number; preview: number; uniqueVisitors: number };
  breakdowns: { referrers: Array<{ value: string | null; clicks: { total: number; human: number; bot: number; preview: number } }> };
  countries: Array<{ country: string | null; name: string; people: number; bots: number; previews: number; total: number }>;
}

describe('linkforge mcp: get_link_stats sums a link\'s clicks as the stats API counts them', () => {
  const suite = suiteScope();
  let instance: InstanceWithKey;
  let mcp: McpSession;

  before(async () => {
    instance = await startInstanceWithKey(suite);
    mcp = await connectMcp(suite, { LINKFORGE_URL: instance.server.baseUrl, LINKFORGE_API_KEY: instance.key });
  });

  test('answers the clicks by people and bots, unique visitors and the top countries and referrers the API gives', async () => {
    const made = await callTool(mcp.client, 'create_link', { url: `https://example.com/counted-${process.pid}-${Date.now()}` });
    const code = (made.structuredContent as { link: { short_code: string } }).link.short_code;
    const visit = (agent: string, referer?: string) => fetch(`${instance.server.baseUrl}/${code}`, {
      redirect: 'manual', headers: { 'user-agent': agent, ...(referer ? { referer } : {}) },
    });
    for (const response of [await visit(FIREFOX, 'https://news.example/story'), await visit(FIREFOX, 'https://news.example/other'), await visit(GOOGLEBOT)]) {
      assert.equal(response.status, 301);
    }
    const statsPath = `/api/v1/workspaces/${instance.workspaceId}/links/${code}/stats`;
    let stats: StatsJson;
    // The visits are written by the next flush (ANALYTICS_FLUSH_INTERVAL): wait for them to show, not for a time.
    for (;;) {
      stats = await (await instance.api(statsPath)).json() as StatsJson;
      if (stats.totals.total === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const result = await callTool(mcp.client, 'get_link_stats', { code });
    assert.equal(result.isError, undefined, textOf(result));
    const summary = result.structuredContent as Record<string, unknown>;
    assert.deepEqual(summary.clicks, { people: 2, bots: 1, previews: 0, total: 3 });
    assert.equal(summary.unique_visitors, stats.totals.uniqueVisitors);
    assert.deepEqual({ from: summary.from, to: summary.to }, { from: stats.from, to: stats.to });
    assert.deepEqual(summary.countries, stats.countries);
    assert.deepEqual(summary.referrers, stats.breakdowns.referrers.map(({ value, clicks }) => ({ value, people: clicks.human, bots: clicks.bot, previews: clicks.preview, total: clicks.total })));
    assert.deepEqual((summary.referrers as Array<{ value: string | null }>).map(({ value }) => value).sort(), ['news.example', null].sort());
    assert.match(textOf(result), new RegExp(`^${code}, .+: 3 clicks \\(2 by people, 1 by bots, 0 link previews\\), ${stats.totals.uniqueVisitors} unique visitors\\.`));
    assert.match(textOf(result), /Top referrers: news\.example 2, direct 1\./);
  });

  test('passes the range on: from and to come back as the API rounded them', async () => {
    const made = await callTool(mcp.client, 'create_link', { url: `https://example.com/ranged-${process.pid}-${Date.now()}` });
    const code = (made.structuredContent as { link: { short_code: string } }).link.short_code;
    const result = await callTool(mcp.client, 'get_link_stats', { code, from: '2026-01-01T10:30:00Z', to: '2026-01-03T00:00:00Z' });
    assert.equal(result.isError, undefined, textOf(result));
    assert.deepEqual([result.structuredContent!.from, result.structuredContent!.to], ['2026-01-01T00:00:00.000Z', '2026-01-03T00:00:00.000Z']);
    assert.deepEqual(result.structuredContent!.clicks, { people: 0, bots: 0, previews: 0, total: 0 });
  });
});
