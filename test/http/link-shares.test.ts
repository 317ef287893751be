import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink, visit } from '../support/owned-links.js';
import { createCallers, type Callers } from '../support/callers.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer } from '../support/users.js';
import { DAY, HOUR, insertBreakdown, insertHourlyClicks } from '../support/visit-rows.js';
import { suiteScope } from '../support/teardown.js';

const SECRET_URL = 'https://example.com/landing/page?utm_source=news&api_key=s3cr3t#frag-secret';

describe('shared stats: a read-only, revocable address of one link\'s stats', () => {
  let t: TestApp;
  let c: Callers;
  let link: { id: number; shortCode: string };

  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', RATE_LIMIT_ANON: '0' });
    c = await createCallers(t.app);
    link = await createLink(t.app, c.owner.token, { url: SECRET_URL, workspaceId: c.team });
    const now = t.clock.now();
    await insertHourlyClicks(t.deps.database.db, link.id, now - DAY + 3 * HOUR, { human: 4, bot: 1 });
    await insertBreakdown(t.deps.database.db, link.id, now - DAY, 'referrer', 'news.example', { human: 4 });
  });

  const shareUrl = (id = link.id) => `/api/urls/${id}/share`;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, authorization?: string) =>
    t.app.inject({ method, url, headers: authorization === undefined ? {} : bearer(authorization) });
  const shareRows = () => t.deps.database.db.selectFrom('link_shares').selectAll().orderBy('id').execute();
  const shared = (token: string, query = '') => call('GET', `/api/shared/${token}/stats${query}`);

  async function share(authorization = c.owner.token): Promise<string> {
    const response = await call('POST', shareUrl(), authorization);
    assert.equal(response.statusCode, 201, response.body);
    return response.json().token;
  }

  test('the owner shares the stats: a token shown once (stored only hashed), and a page anyone can open', async () => {
    assert.deepEqual((await call('GET', shareUrl(), c.owner.token)).json(), { shared: false, createdAt: null, mayShare: true });
    const response = await call('POST', shareUrl(), c.owner.token);
    assert.equal(response.statusCode, 201, response.body);
    const body = response.json();
    assert.match(body.token, /^lfs_[A-Za-z0-9_-]{43}$/);
    assert.equal(body.url, `http://sho.rt/app/shared/${body.token}`);
    assert.equal(body.statsUrl, `http://sho.rt/api/shared/${body.token}/stats`);
    const rows = await shareRows();
    assert.equal(rows.length, 1);
    assert.ok(!JSON.stringify(rows).includes(body.token.slice(4)), 'the token itself is not stored');
    assert.deepEqual((await call('GET', shareUrl(), c.member.token)).json(), { shared: true, createdAt: body.createdAt, mayShare: false });
  });

  test('without signing in, the shared stats answer what the owner sees, minus the query string, fragment and owner', async () => {
    const token = await share();
    for (const query of ['', '?interval=hour&from=' + new Date(t.clock.now() - DAY).toISOString()]) {
      const response = await shared(token, query);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['cache-control'], 'no-store');
      const body = response.json();
      const own = (await call('GET', `/api/urls/${link.id}/stats${query}`, c.owner.token)).json();
      const { linkId: _linkId, ...ownStats } = own;
      assert.equal(body.linkId, undefined);
      const { link: sharedLink, ...sharedStats } = body;
      assert.deepEqual(sharedStats, ownStats);
      assert.deepEqual(sharedLink, { shortCode: link.shortCode, shortUrl: `http://sho.rt/${link.shortCode}`, destination: 'https://example.com/landing/page' });
      for (const secret of ['s3cr3t', 'utm_source', 'frag-secret', c.owner.user.email, 'ownerId', 'workspaceId']) {
        assert.ok(!response.body.includes(secret), `no ${secret} in the shared answer`);
      }
    }
    assert.equal((await shared(token, '?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z')).statusCode, 400);
  });

  test('viewing the shared stats and the shared page records no visit and moves no counter', async () => {
    const token = await share();
    const counters = () => Promise.all([
      t.deps.database.db.selectFrom('links').select(['redirect_count', 'human_count', 'bot_count', 'preview_count']).where('id', '=', link.id).executeTakeFirstOrThrow(),
      t.deps.database.db.selectFrom('visits').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      t.deps.database.db.selectFrom('global_stats').selectAll().execute(),
      t.deps.database.db.selectFrom('link_clicks_hourly').selectAll().orderBy('hour_start').execute(),
    ]);
    const before = await counters();
    for (let i = 0; i < 3; i++) {
      assert.equal((await shared(token)).statusCode, 200);
      const page = await call('GET', `/app/shared/${token}`);
      assert.ok([200, 503].includes(page.statusCode), 'the UI page (503 only when the UI is not built)');
      if (page.statusCode === 200) assert.equal(page.headers['referrer-policy'], 'no-referrer', 'the token never leaves in a Referer');
    }
    await t.deps.analytics?.flusher.flushNow();
    assert.deepEqual(await counters(), before);
    // The short link itself still counts: the flush above would have written a visit.
    assert.equal((await visit(t.app, link.shortCode)).status, 301);
    await t.deps.analytics?.flusher.flushNow();
    assert.notDeepEqual(await counters(), before);
  });

  test('a revoked, replaced or wrong token answers 404 shared_stats_not_found; a link has one active share', async () => {
    const first = await share();
    const second = await share();
    assert.equal((await shared(first)).statusCode, 404, 'making a new share revokes the one before');
    assert.equal((await shared(first)).json().code, 'shared_stats_not_found');
    assert.equal((await shared(second)).statusCode, 200);
    assert.equal((await shared('lfs_' + 'A'.repeat(43))).statusCode, 404);
    assert.equal((await shared('not-even-a-token')).statusCode, 404);
    assert.equal((await call('DELETE', shareUrl(), c.owner.token)).statusCode, 204);
    assert.equal((await shared(second)).statusCode, 404);
    assert.deepEqual((await call('GET', shareUrl(), c.owner.token)).json(), { shared: false, createdAt: null, mayShare: true });
    assert.equal((await call('DELETE', shareUrl(), c.owner.token)).statusCode, 204, 'revoking nothing succeeds');
    assert.equal((await shareRows()).filter((row) => row.revoked_at === null).length, 0);
  });

  test('deleting the link makes its share 404; restoring it brings the share back', async () => {
    const token = await share();
    assert.equal((await call('DELETE', `/api/urls/${link.id}`, c.owner.token)).statusCode, 204);
    const response = await shared(token);
    assert.equal(response.statusCode, 404);
    assert.ok(!response.body.includes('example.com'));
    assert.equal((await call('POST', `/api/urls/${link.id}/restore`, c.owner.token)).statusCode, 200);
    assert.equal((await shared(token)).statusCode, 200);
  });

  test('only an owner or admin shares or revokes; members may see whether a share exists; others get 404 or 401, and nothing changes', async () => {
    await share();
    const expected: Array<[string, string | undefined, number, number]> = [
      // name, credential, GET status, POST/DELETE status
      ['member', c.member.token, 200, 403], ['stranger', c.stranger.token, 404, 404], ['outsider', c.outsider.token, 404, 404],
      ['team API key (app API is JWT only)', c.teamKey, 401, 401], ['anonymous', undefined, 401, 401],
    ];
    for (const [name, authorization, readStatus, changeStatus] of expected) {
      const before = await shareRows();
      assert.equal((await call('GET', shareUrl(), authorization)).statusCode, readStatus, name);
      for (const method of ['POST', 'DELETE'] as const) {
        const response = await call(method, shareUrl(), authorization);
        assert.equal(response.statusCode, changeStatus, `${name} ${method}: ${response.body}`);
        if (changeStatus === 403) assert.equal(response.json().code, 'link_share_not_allowed');
        if (changeStatus === 404) assert.equal(response.json().code, 'link_not_found');
      }
      assert.deepEqual(await shareRows(), before, `${name} changed nothing`);
    }
    assert.equal((await call('POST', shareUrl(999_999), c.owner.token)).statusCode, 404);
  });
});

describe('shared stats are rate-limited like the other public routes', () => {
  test('past RATE_LIMIT_ANON requests a minute, a client gets 429', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_ANON: '2', RATE_LIMIT_AUTH: '0' });
    const c = await createCallers(t.app);
    const link = await createLink(t.app, c.owner.token, { url: 'https://example.com/limited' });
    const { token } = (await t.app.inject({ method: 'POST', url: `/api/urls/${link.id}/share`, headers: bearer(c.owner.token) })).json();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.app.inject({ url: `/api/shared/${token}/stats` })).statusCode);
    assert.deepEqual(statuses, [200, 200, 429]);
  });
});
