import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import os from 'node:os';
import path from 'node:path';
import { LogDestination } from '../../src/logging/log-destination.js';
import { createLogging } from '../../src/logging/logger.js';
import { onTeardown, once } from '../support/teardown.js';
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
    assert.deepEqual(stats.totals, { total: 6, human: 5, bot: 1, preview: 0, uniqueVisitors: 2 }, 'a visit that asks not to be tracked is still counted');
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

  test('no address is written: not in the database, not in the log at info level (nor, on SQLite, anywhere in its file or WAL); no salt outlives its day', async (context) => {
    const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-no-address-')), 'app.log');
    const fd = fs.openSync(logFile, 'w');
    onTeardown(context, once(async () => fs.closeSync(fd)));
    const { logger } = createLogging('info', new LogDestination(fd));
    const t = await createTestApp(context, { TRUST_PROXY: 'loopback', LOG_LEVEL: 'info' }, { logger });
    const addresses = [GB, NL, JP, BR];
    const stats = await visitAndRead(t, addresses.map((forwardedFor) => ({ forwardedFor })));
    assert.equal(stats.countries.length, 4);
    assert.equal(stats.totals.uniqueVisitors, 4);
    const db = t.deps.database.db;
    const firstSalt = (await db.selectFrom('visitor_salts').select('salt').executeTakeFirstOrThrow()).salt;
    // The next day's visit makes the next salt, and the first one is deleted.
    t.clock.advance(24 * 3_600_000);
    await visitAndRead(t, [{ forwardedFor: GB }]);
    const tables = await Promise.all(['visit_facts', 'link_breakdown_daily', 'link_visitors', 'link_clicks_hourly', 'visitor_salts', 'visits']
      .map((table) => db.selectFrom(table as 'visits').selectAll().execute()));
    const text = JSON.stringify(tables);
    for (const address of addresses) assert.ok(!text.includes(address), `${address} is in a row`);
    assert.ok(!text.includes(firstSalt), 'yesterday\'s salt is in a row');
    const log = fs.readFileSync(logFile, 'utf8');
    assert.ok(log.length > 0, 'the log was written');
    for (const address of addresses) assert.ok(!log.includes(address), `${address} is in the log`);
    if (t.deps.config.database.kind === 'sqlite') {
      await sql`select 1`.execute(db);
      const file = t.deps.config.database.path;
      for (const part of [file, `${file}-wal`].filter((name) => fs.existsSync(name))) {
        const bytes = fs.readFileSync(part);
        for (const address of addresses) assert.equal(bytes.indexOf(address), -1, `${address} is in ${part}`);
      }
      // Yesterday's salt row was overwritten before its delete, so once SQLite checkpoints its WAL
      // (here at once, and emptied) neither file holds it. Until then the WAL's old frame does (ADR 0028).
      const other = new SQLite(file);
      other.pragma('wal_checkpoint(TRUNCATE)');
      other.close();
      for (const part of [file, `${file}-wal`].filter((name) => fs.existsSync(name))) {
        assert.equal(fs.readFileSync(part).indexOf(firstSalt), -1, `yesterday's salt is in ${part}`);
      }
    }
  });
});
