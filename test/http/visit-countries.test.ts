import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { sql } from 'kysely';
import { visitNewLink, type ProxiedVisit } from '../support/proxied-visits.js';
import { createTestApp } from '../support/test-app.js';
import { bearer } from '../support/users.js';

const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** Addresses whose country the bundled DB-IP Lite database gives (the package's version is pinned). */
const GB = '81.2.69.142';
const NL = '193.0.6.139';
const JP = '202.12.27.33';
const BR = '200.160.2.3';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

async function visitAndRead(t: TestApp, visits: readonly ProxiedVisit[]) {
  const { owner, link } = await visitNewLink(t, visits);
  const stats = await t.app.inject({ url: `/api/urls/${link.id}/stats`, headers: bearer(owner.token) });
  assert.equal(stats.statusCode, 200, stats.body);
  return stats.json();
}

describe('the country of a visit, looked up from its address, which is not kept', () => {
  test('through a trusted proxy each visit lands in its country; DNT, Sec-GPC and an address in no country give none', async (context) => {
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback' });
    const stats = await visitAndRead(t, [
      { forwardedFor: GB }, { forwardedFor: `198.51.100.1, ${GB}` }, { forwardedFor: NL, userAgent: BOT_UA },
      { forwardedFor: JP, headers: { dnt: '1' } }, { forwardedFor: BR, headers: { 'sec-gpc': '1' } }, { forwardedFor: '10.0.0.1' },
    ]);
    assert.deepEqual(stats.countries, [
      { country: null, name: 'Unknown', people: 3, bots: 0, previews: 0, total: 3 },
      { country: 'GB', name: 'United Kingdom', people: 2, bots: 0, previews: 0, total: 2 },
      { country: 'NL', name: 'Netherlands', people: 0, bots: 1, previews: 0, total: 1 },
    ]);
    assert.deepEqual(stats.totals, { total: 6, human: 5, bot: 1, preview: 0 }, 'a visit that asks not to be tracked is still counted');
  });

  test('the header of a client that is not a trusted proxy is ignored: the socket\'s address (loopback) is in no country', async (context) => {
    const t = await createTestApp(context);
    const stats = await visitAndRead(t, [{ forwardedFor: GB }, { forwardedFor: NL }]);
    assert.deepEqual(stats.countries, [{ country: null, name: 'Unknown', people: 2, bots: 0, previews: 0, total: 2 }]);
  });

  test('ANALYTICS_PRIVACY=strict: no visit gets a country', async (context) => {
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback', ANALYTICS_PRIVACY: 'strict' });
    const stats = await visitAndRead(t, [{ forwardedFor: GB }, { forwardedFor: JP }]);
    assert.deepEqual(stats.countries, [{ country: null, name: 'Unknown', people: 2, bots: 0, previews: 0, total: 2 }]);
  });

  test('no address is written: not in the database (nor, on SQLite, anywhere in its file or WAL)', async (context) => {
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback' });
    const addresses = [GB, NL, JP, BR];
    const stats = await visitAndRead(t, addresses.map((forwardedFor) => ({ forwardedFor })));
    assert.equal(stats.countries.length, 4);
    const db = t.deps.database.db;
    const facts = await db.selectFrom('visit_facts').selectAll().execute();
    const daily = await db.selectFrom('link_breakdown_daily').selectAll().execute();
    const text = JSON.stringify([facts, daily]);
    for (const address of addresses) assert.ok(!text.includes(address), `${address} is in a row`);
    if (t.deps.config.database.kind === 'sqlite') {
      await sql`select 1`.execute(db);
      const file = t.deps.config.database.path;
      for (const part of [file, `${file}-wal`].filter((name) => fs.existsSync(name))) {
        const bytes = fs.readFileSync(part);
        for (const address of addresses) assert.equal(bytes.indexOf(address), -1, `${address} is in ${part}`);
      }
    }
  });
});
