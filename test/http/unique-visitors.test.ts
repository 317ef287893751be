import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createLink, createWorkspace } from '../support/owned-links.js';
import { createSecondInstance } from '../support/second-instance.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';

const DAY = 24 * 3_600_000;
const HOUR = 3_600_000;
const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PREVIEW_UA = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
/** One of several people's browsers: a person is an (address, User-Agent) pair. */
const browser = (n: number) => `Mozilla/5.0 (X11; Linux x86_64; rv:${100 + n}.0) Gecko/20100101 Firefox/${100 + n}.0`;
/** Documentation addresses (RFC 5737), each a distinct client behind the trusted proxy. */
const address = (n: number) => `198.51.100.${n}`;

interface Visitor {
  readonly address: string;
  readonly userAgent: string;
  readonly headers?: Record<string, string>;
}

const person = (n: number, agent = n % 7): Visitor => ({ address: address(n), userAgent: browser(agent) });

async function visitAll(app: FastifyInstance, code: string, visitors: readonly Visitor[]): Promise<void> {
  for (const v of visitors) {
    const response = await app.inject({ url: `/${code}`, headers: { 'user-agent': v.userAgent, 'x-forwarded-for': v.address, ...v.headers } });
    assert.equal(response.statusCode, 301);
  }
}

async function flush(t: { deps: TestApp['deps'] }): Promise<void> {
  await (t.deps.analytics ?? assert.fail('analytics are on by default')).flusher.flushNow();
}

async function linkOf(t: TestApp) {
  const owner = await registerUser(t.app);
  const link = await createLink(t.app, owner.token, { url: 'https://example.com/visitors' });
  const issuedAt = t.clock.now();
  /** Read while the owner's token is still young (a test that moves days on reads the range it names). */
  const stats = async (query = '') => {
    const now = t.clock.now();
    t.clock.set(Math.min(now, issuedAt + HOUR));
    try {
      const response = await t.app.inject({ url: `/api/urls/${link.id}/stats${query}`, headers: bearer(owner.token) });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    } finally {
      t.clock.set(now);
    }
  };
  return { owner, link, stats };
}

const dayOf = (time: number) => new Date(time - (time % DAY)).toISOString();

describe('unique visitors: a daily-salted hash of (address, User-Agent, link), nothing that identifies them kept', () => {
  test('1,000 visits by 100 people count 100 visitors; bots, previews and visits with DNT, Sec-GPC count none', async (context) => {
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback' });
    const { link, stats } = await linkOf(t);
    const people = Array.from({ length: 100 }, (_, n) => person(n + 1));
    await visitAll(t.app, link.shortCode, Array.from({ length: 1_000 }, (_, k) => people[(k * 37) % 100]!));
    await visitAll(t.app, link.shortCode, [
      ...Array.from({ length: 20 }, (_, n) => ({ address: address(150 + n), userAgent: BOT_UA })),
      ...Array.from({ length: 10 }, (_, n) => ({ address: address(180 + n), userAgent: PREVIEW_UA })),
      { ...person(201), headers: { dnt: '1' } }, { ...person(202), headers: { 'sec-gpc': '1' } },
    ]);
    await flush(t);
    const body = await stats();
    assert.deepEqual(body.totals, { total: 1_032, human: 1_002, bot: 20, preview: 10, uniqueVisitors: 100 });
    const today = body.series.find((bucket: { start: string }) => bucket.start === dayOf(t.clock.now()));
    assert.equal(today.uniqueVisitors, 100);
    assert.equal(body.series.reduce((sum: number, bucket: { uniqueVisitors: number }) => sum + bucket.uniqueVisitors, 0), 100);
    assert.equal(Number((await t.deps.database.db.selectFrom('link_visitors').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n), 100);

    await visitAll(t.app, link.shortCode, people.slice(0, 10));
    await flush(t);
    assert.equal((await stats()).totals.uniqueVisitors, 100, 'the same people later the same day are not new');
  });

  test('the same people on a new day count again; an hour bucket counts the people first seen in it', async (context) => {
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback' });
    const { link, stats } = await linkOf(t);
    const start = t.clock.now();
    await visitAll(t.app, link.shortCode, [person(1), person(2)]);
    t.clock.advance(2 * HOUR);
    await visitAll(t.app, link.shortCode, [person(1), person(3)]);
    await flush(t);
    const hours = await stats(`?interval=hour&from=${new Date(start).toISOString()}&to=${new Date(start + 3 * HOUR).toISOString()}`);
    assert.deepEqual(hours.series.map((bucket: { uniqueVisitors: number }) => bucket.uniqueVisitors), [2, 0, 1]);
    assert.equal(hours.totals.uniqueVisitors, 3);
    const firstSalt = await t.deps.database.db.selectFrom('visitor_salts').select(['day_start', 'salt']).execute();
    assert.deepEqual(firstSalt.map((row) => Number(row.day_start)), [start - (start % DAY)]);

    t.clock.advance(DAY);
    await visitAll(t.app, link.shortCode, [person(1), person(2)]);
    await flush(t);
    const range = `?from=${dayOf(start)}&to=${dayOf(start + 2 * DAY)}`;
    const days = await stats(range);
    assert.deepEqual(days.series.map((bucket: { uniqueVisitors: number }) => bucket.uniqueVisitors), [3, 2]);
    assert.equal(days.totals.uniqueVisitors, 5, 'a range sums its days: the salt changed, so people of both days count on each');
    const salts = await t.deps.database.db.selectFrom('visitor_salts').select(['day_start', 'salt']).execute();
    assert.deepEqual(salts.map((row) => Number(row.day_start)), [start - (start % DAY) + DAY], 'yesterday\'s salt is gone');
    assert.notEqual(salts[0]!.salt, firstSalt[0]!.salt);

    t.clock.advance(DAY);
    await visitAll(t.app, link.shortCode, [person(4)]);
    await flush(t);
    const idDays = await t.deps.database.db.selectFrom('link_visitors').select('day_start').distinct().execute();
    assert.deepEqual(idDays.map((row) => Number(row.day_start)).sort(), [start - (start % DAY) + DAY, start - (start % DAY) + 2 * DAY],
      'ids are kept for today and yesterday only');
    assert.equal((await stats(range)).totals.uniqueVisitors, 5, 'the counts of past days stay when their ids are gone');
  });

  test('ANALYTICS_PRIVACY=strict: visits are counted, visitors are not', async (context) => {
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback', ANALYTICS_PRIVACY: 'strict' });
    const { link, stats } = await linkOf(t);
    await visitAll(t.app, link.shortCode, [person(1), person(2)]);
    await flush(t);
    assert.deepEqual((await stats()).totals, { total: 2, human: 2, bot: 0, preview: 0, uniqueVisitors: 0 });
    assert.deepEqual(await t.deps.database.db.selectFrom('visitor_salts').selectAll().execute(), [], 'no salt is made for nobody');
  });

  test('two instances on one database count a person who visits both once', async (context) => {
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback' });
    const second = await createSecondInstance(context, t, { TRUST_PROXY: 'loopback' });
    const { link, stats } = await linkOf(t);
    await visitAll(t.app, link.shortCode, [person(1), person(2)]);
    await visitAll(second.app, link.shortCode, [person(1), person(3)]);
    await Promise.all([flush(t), flush(second)]);
    assert.deepEqual((await stats()).totals, { total: 4, human: 4, bot: 0, preview: 0, uniqueVisitors: 3 });
  });

  test('the workspace route answers the same unique visitors, in its totals and buckets', async (context) => {
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback' });
    const owner = await registerUser(t.app);
    const workspaceId = await createWorkspace(t.app, owner.token);
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/team-visitors', workspaceId });
    await visitAll(t.app, link.shortCode, [person(1), person(2), person(1)]);
    await flush(t);
    const response = await t.app.inject({ url: `/api/v1/workspaces/${workspaceId}/links/${link.shortCode}/stats`, headers: bearer(owner.token) });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.totals.uniqueVisitors, 2);
    assert.equal(body.series.at(-1).uniqueVisitors, 2);
  });
});
