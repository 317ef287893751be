import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink } from '../support/owned-links.js';
import { createCallers, type Callers } from '../support/callers.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer } from '../support/users.js';
import { DAY, HOUR, insertVisits, insertVisitsWithFacts } from '../support/visit-rows.js';
import { suiteScope } from '../support/teardown.js';

const HEADER = 'time,class,country,city,referrer_host,browser,os,device,destination';
const lines = (body: string) => body.split('\r\n').slice(0, -1);

describe('visits as CSV: GET /api/urls/{id}/visits.csv and GET /api/v1/workspaces/{id}/visits.csv', () => {
  let t: TestApp;
  let c: Callers;
  let now: number;
  let link: { id: number; shortCode: string };
  let sibling: { id: number; shortCode: string };
  let personal: { id: number; shortCode: string };

  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    now = t.clock.now();
    c = await createCallers(t.app);
    link = await createLink(t.app, c.owner.token, { url: 'https://example.com/csv', workspaceId: c.team });
    sibling = await createLink(t.app, c.owner.token, { url: 'https://example.com/csv-sibling', workspaceId: c.team });
    personal = await createLink(t.app, c.owner.token, { url: 'https://example.com/csv-personal' });
    const { db } = t.deps.database;
    await insertVisitsWithFacts(db, link.id, [
      { at: now - 2 * DAY, facts: { visitorClass: 'human', referrerHost: 'news.example', browser: 'Firefox', os: 'Linux', device: 'desktop', country: 'DE' } },
      { at: now - DAY, facts: { visitorClass: 'bot', referrerHost: '=cmd|calc', browser: 'Fire"fox, Nightly', os: null, device: null, country: null } },
      { at: now - HOUR, facts: { visitorClass: 'preview', referrerHost: '@evil.example', browser: null, os: '+Android', device: 'mobile', country: 'FR' } },
    ]);
    await insertVisitsWithFacts(db, sibling.id, [{ at: now - 3 * HOUR, facts: { visitorClass: 'human', referrerHost: null, browser: 'Safari', os: 'iOS', device: 'mobile', country: 'US' } }]);
    await insertVisitsWithFacts(db, personal.id, [{ at: now - 3 * HOUR, facts: { visitorClass: 'human', referrerHost: 'personal.example', browser: null, os: null, device: null } }]);
  });

  const linkCsv = (query = '', id = link.id) => `/api/urls/${id}/visits.csv${query}`;
  const workspaceCsv = (workspaceId = c.team, query = '') => `/api/v1/workspaces/${workspaceId}/visits.csv${query}`;
  const get = (url: string, authorization?: string) => t.app.inject({ method: 'GET', url, headers: authorization === undefined ? {} : bearer(authorization) });

  test('the owner gets every visit of the last 30 days, a header row first, quoted per RFC 4180 and with formulas neutralised', async () => {
    const response = await get(linkCsv(), c.owner.token);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8');
    const today = new Date(now).toISOString().slice(0, 10);
    const first = new Date(now - 29 * DAY).toISOString().slice(0, 10);
    assert.equal(response.headers['content-disposition'], `attachment; filename="linkforge-visits-${link.shortCode}-${first}-to-${today}.csv"`);
    assert.deepEqual(lines(response.body), [
      HEADER,
      `${new Date(now - 2 * DAY).toISOString()},human,DE,,news.example,Firefox,Linux,desktop,`,
      `${new Date(now - DAY).toISOString()},bot,,,'=cmd|calc,"Fire""fox, Nightly",,,`,
      `${new Date(now - HOUR).toISOString()},preview,FR,,'@evil.example,,'+Android,mobile,`,
    ]);
    assert.ok(!/\d+\.\d+\.\d+\.\d+/.test(response.body), 'no address anywhere');
  });

  test('from and to pick the visits in [from, to); bad ones are a 400 naming the field, like the stats route', async () => {
    const from = new Date(now - DAY - HOUR).toISOString();
    const to = new Date(now - HOUR).toISOString();
    const response = await get(linkCsv(`?from=${from}&to=${to}`), c.owner.token);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(lines(response.body).map((line) => line.split(',')[1]), ['class', 'bot']);

    const badFormat = await get(linkCsv('?from=yesterday'), c.owner.token);
    assert.equal(badFormat.statusCode, 400);
    assert.match(badFormat.json().detail, /from/);
    const reversed = await get(linkCsv(`?from=${to}&to=${from}`), c.owner.token);
    assert.equal(reversed.statusCode, 400);
    assert.equal(reversed.json().code, 'stats_range_invalid');
    assert.match(reversed.json().detail, /from must be before to/);
    const tooLong = await get(linkCsv(`?from=${new Date(now - 400 * DAY).toISOString()}`), c.owner.token);
    assert.equal(tooLong.statusCode, 400);
    const unknown = await get(linkCsv('?interval=hour'), c.owner.token);
    assert.equal(unknown.statusCode, 400);
  });

  test('whoever may read the link\'s stats may export it; everyone else gets what the stats route answers', async () => {
    const expected: Array<[string, string | undefined, number]> = [
      ['owner', c.owner.token, 200], ['member', c.member.token, 200], ['stranger', c.stranger.token, 404],
      ['outsider', c.outsider.token, 404], ['team API key (app API is JWT only)', c.teamKey, 401], ['anonymous', undefined, 401],
    ];
    for (const [name, authorization, status] of expected) {
      const response = await get(linkCsv(), authorization);
      assert.equal(response.statusCode, status, `${name}: ${response.body}`);
      if (status !== 200) assert.ok(!response.body.includes('news.example'), `${name} sees no visit`);
      if (status === 404) assert.equal(response.json().code, 'link_not_found');
    }
    assert.equal((await get(linkCsv('', 999_999), c.owner.token)).statusCode, 404);
  });

  test('a workspace\'s CSV has every link\'s visits, link by link, with the link\'s id and code', async () => {
    const response = await get(workspaceCsv(), c.teamKey);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8');
    assert.match(String(response.headers['content-disposition']), new RegExp(`^attachment; filename="linkforge-workspace-${c.team}-visits-\\d{4}-\\d{2}-\\d{2}-to-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    const rows = lines(response.body);
    assert.equal(rows[0], `link_id,code,${HEADER}`);
    assert.deepEqual(rows.slice(1).map((row) => row.split(',').slice(0, 3).join(',')), [
      `${link.id},${link.shortCode},${new Date(now - 2 * DAY).toISOString()}`,
      `${link.id},${link.shortCode},${new Date(now - DAY).toISOString()}`,
      `${link.id},${link.shortCode},${new Date(now - HOUR).toISOString()}`,
      `${sibling.id},${sibling.shortCode},${new Date(now - 3 * HOUR).toISOString()}`,
    ]);
    assert.ok(!response.body.includes('personal.example'), 'another workspace\'s visits stay out');
  });

  test('the workspace CSV is for its members and its own API key only', async () => {
    const expected: Array<[string, string | undefined, number]> = [
      ['owner', c.owner.token, 200], ['member', c.member.token, 200], ['team API key', c.teamKey, 200],
      ['stranger', c.stranger.token, 404], ['outsider', c.outsider.token, 404], ['another workspace\'s API key', c.foreignKey, 404], ['anonymous', undefined, 401],
    ];
    for (const [name, authorization, status] of expected) {
      const response = await get(workspaceCsv(), authorization);
      assert.equal(response.statusCode, status, `${name}: ${response.body}`);
      if (status !== 200) assert.ok(!response.body.includes('news.example'), `${name} sees no visit`);
    }
  });

  test('thousands of visits in many ranges, some overlapping, come out once each, in id order, page after page', async () => {
    const big = await createLink(t.app, c.owner.token, { url: 'https://example.com/csv-big', workspaceId: c.team });
    const { db } = t.deps.database;
    await insertVisits(db, big.id, now - 5 * DAY, 2_500);
    // Two PostgreSQL instances flushing at once can leave one link with overlapping ranges.
    const ranges = await db.selectFrom('visit_ranges').select(['first_id', 'last_id']).where('link_id', '=', big.id).orderBy('first_id').execute();
    await db.insertInto('visit_ranges').values({ link_id: big.id, first_id: Number(ranges[0]!.first_id) + 1, last_id: Number(ranges.at(-1)!.last_id) }).execute();
    const response = await get(linkCsv('', big.id), c.owner.token);
    assert.equal(response.statusCode, 200);
    const times = lines(response.body).slice(1).map((line) => Date.parse(line.split(',')[0]!));
    assert.equal(times.length, 2_500);
    assert.deepEqual(times, Array.from({ length: 2_500 }, (_, i) => now - 5 * DAY + i * 60_000));
  });
});
