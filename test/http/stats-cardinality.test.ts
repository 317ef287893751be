import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink } from '../support/owned-links.js';
import { createTestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';

const HUMAN_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

describe('a flood of distinct referrers (ADR 0021)', () => {
  test("past 100 hosts in a day the stats show the rest as one '(other)' referrer, and every click counts", async (context) => {
    const t = await createTestApp(context);
    const owner = await registerUser(t.app);
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/flooded' });
    const referers = [...Array.from({ length: 130 }, (_, i) => `https://h${i}.example.org/`), ...Array(40).fill('https://news.example/')];
    for (const referer of referers) {
      const response = await t.app.inject({ url: `/${link.shortCode}`, headers: { 'user-agent': HUMAN_UA, referer } });
      assert.equal(response.statusCode, 301);
    }
    await (t.deps.analytics ?? assert.fail('analytics are on by default')).flusher.flushNow();

    const stats = (await t.app.inject({ url: `/api/urls/${link.id}/stats`, headers: bearer(owner.token) })).json();
    assert.deepEqual(stats.totals, { total: 170, human: 170, bot: 0, preview: 0, uniqueVisitors: 1 });
    assert.deepEqual(stats.breakdowns.referrers.slice(0, 2), [
      { value: 'news.example', clicks: { total: 40, human: 40, bot: 0, preview: 0 } },
      { value: '(other)', clicks: { total: 31, human: 31, bot: 0, preview: 0 } },
    ]);
    const stored = await t.deps.database.db.selectFrom('link_breakdown_daily').select((eb) => eb.fn.countAll().as('n'))
      .where('link_id', '=', link.id).where('dimension', '=', 'referrer').executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), 101, 'a hundred hosts and (other)');
  });
});
