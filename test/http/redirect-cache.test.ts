import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createAnonymousLink } from '../../src/links/create-anonymous-link.js';
import { createTestApp } from '../support/test-app.js';
import { insertLink, setLinkColumns } from '../support/links.js';

describe('the in-process cache in front of the database', () => {
  test('a cached link keeps redirecting without reading the database again', async (context) => {
    const t = await createTestApp(context);
      const link = await insertLink(t.deps);
      await t.app.inject({ url: `/${link.code}` });
      t.statements.length = 0;
      for (let i = 0; i < 5; i++) assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
      assert.deepEqual(t.statements, []);
  });

  test('an unknown code is remembered briefly, then looked up again', async (context) => {
    const t = await createTestApp(context, { CACHE_NEGATIVE_TTL: '60s' });
      assert.equal((await t.app.inject({ url: '/later12' })).statusCode, 404);
      // Stored behind the cache's back (no invalidation): the negative entry still answers. On SQLite the
      // change log would tell this process of the insert, and its follower drop the entry at its next
      // poll; this test is of the TTL alone, so the insert goes unlogged.
      if (t.config.database.kind === 'sqlite') await sql`drop trigger link_changes_on_insert`.execute(t.deps.database.db);
      await insertLink(t.deps, { code: 'later12' });
      t.clock.advance(59_000);
      assert.equal((await t.app.inject({ url: '/later12' })).statusCode, 404);
      t.clock.advance(1_001);
      assert.equal((await t.app.inject({ url: '/later12' })).statusCode, 301);
  });

  test('creating a link invalidates a negative entry for its code at once', async (context) => {
    const t = await createTestApp(context);
      assert.equal((await t.app.inject({ url: '/wanted7' })).statusCode, 404);
      await createAnonymousLink({ ...t.deps.links.anonymous, generateCode: () => 'wanted7' }, 'https://example.com/');
      assert.equal((await t.app.inject({ url: '/wanted7' })).statusCode, 302);
  });

  test('a gone link stays a tombstone after its row is purged, then becomes 404', async (context) => {
    // CACHE_LOCAL_TTL: in scaled mode the in-process tier keeps entries no longer than that.
    const t = await createTestApp(context, { CACHE_TOMBSTONE_TTL: '1h', CACHE_LOCAL_TTL: '1h' });
      const link = await insertLink(t.deps);
      await setLinkColumns(t.deps, link.id, { status: 'DELETED', deleted_at: t.clock.now() });
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 410);
      await t.deps.database.db.deleteFrom('links').where('id', '=', link.id).execute();
      t.clock.advance(3_599_000);
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 410);
      t.clock.advance(1_001);
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 404);
  });

  test('the cache holds at most CACHE_MAX_ENTRIES entries', async (context) => {
    const t = await createTestApp(context, { CACHE_MAX_ENTRIES: '3' });
      for (let i = 0; i < 10; i++) {
        const link = await insertLink(t.deps);
        await t.app.inject({ url: `/${link.code}` });
      }
      assert.equal(t.deps.localCache.size, 3);
  });

  test('the cache holds at most CACHE_MAX_BYTES of links: long URLs make fewer entries, the latest kept', async (context) => {
    const t = await createTestApp(context, { CACHE_MAX_ENTRIES: '1000', CACHE_MAX_BYTES: String(64 * 1024) });
      const links = [];
      for (let i = 0; i < 30; i++) {
        const link = await insertLink(t.deps, { originalUrl: `https://example.com/${i}/${'a'.repeat(4000)}` });
        assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
        links.push(link);
      }
      // 64 KiB holds 15 entries of a 4 KiB URL and its ~0.2 KiB of overhead.
      assert.ok(t.deps.localCache.size >= 10 && t.deps.localCache.size <= 15, `size ${t.deps.localCache.size}`);
      t.statements.length = 0;
      assert.equal((await t.app.inject({ url: `/${links.at(-1)!.code}` })).statusCode, 301);
      assert.deepEqual(t.statements, [], 'the latest link was still cached');
      assert.equal((await t.app.inject({ url: `/${links[0]!.code}` })).statusCode, 301);
      assert.equal(t.statements.filter((sql) => /from "links"/i.test(sql)).length, 1, 'the first link had been evicted');
  });

  test('a flood of unknown codes does not evict cached links', async (context) => {
    const t = await createTestApp(context, { CACHE_MAX_ENTRIES: '4' });
      const link = await insertLink(t.deps);
      await t.app.inject({ url: `/${link.code}` });
      for (let i = 0; i < 50; i++) assert.equal((await t.app.inject({ url: `/probe${i}` })).statusCode, 404);
      t.statements.length = 0;
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
      assert.deepEqual(t.statements, [], 'the link was still cached');
  });

  test('CACHE_MAX_ENTRIES=0 turns the cache off and every redirect reads the database', async (context) => {
    const t = await createTestApp(context, { CACHE_MAX_ENTRIES: '0' });
      const link = await insertLink(t.deps);
      t.statements.length = 0;
      await t.app.inject({ url: `/${link.code}` });
      await t.app.inject({ url: `/${link.code}` });
      assert.equal(t.statements.filter((sql) => /from "links"/i.test(sql)).length, 2);
  });
});

describe('the read path never writes', () => {
  test('redirects of every kind run only SELECT statements and change no row, with analytics on', async (context) => {
    const t = await createTestApp(context, { CACHE_MAX_ENTRIES: '0', ANALYTICS_ENABLED: 'true' });
      const live = await insertLink(t.deps);
      const expiring = await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() + 1000 });
      const deleted = await insertLink(t.deps);
      await setLinkColumns(t.deps, deleted.id, { status: 'DELETED', deleted_at: t.clock.now() });
      t.clock.advance(5000); // `expiring` is now past its expiry but still ACTIVE in its row
      const rowsBefore = await t.deps.database.db.selectFrom('links').selectAll().orderBy('id').execute();
      // On SQLite every write goes to the writer thread; on PostgreSQL the statement log has them all.
      const writer = t.deps.database.embedded?.writer;
      const writesBefore = writer?.sent;
      t.statements.length = 0;
      const codes = [live.code, expiring.code, deleted.code, 'unknown1'];
      const statuses = [];
      for (const code of codes) {
        for (const method of ['GET', 'HEAD'] as const) statuses.push((await t.app.inject({ method, url: `/${code}` })).statusCode);
      }
      assert.deepEqual(statuses, [301, 301, 410, 410, 410, 410, 404, 404]);
      // Misses of one event-loop turn share a read transaction (BEGIN … COMMIT on the reader).
      const reads = t.statements.filter((sql) => !/^(begin|commit)$/i.test(sql));
      assert.ok(reads.length >= 8, 'every redirect read the database');
      for (const sql of reads) assert.match(sql, /^select /i, sql);
      assert.equal(writer?.sent, writesBefore, 'nothing was sent to the writer');
      assert.deepEqual(await t.deps.database.db.selectFrom('links').selectAll().orderBy('id').execute(), rowsBefore);
      const row = await t.deps.database.db.selectFrom('links').select('status').where('id', '=', expiring.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'ACTIVE');
      assert.equal(t.deps.analytics?.buffer.size, 2, 'the two redirects of the live link were recorded, in memory');
  });

  test('with analytics on, cached redirects run no statement at all until the flusher writes their visits', async (context) => {
    const t = await createTestApp(context, { ANALYTICS_ENABLED: 'true' });
      const link = await insertLink(t.deps);
      await t.app.inject({ url: `/${link.code}` });
      await t.deps.analytics?.flusher.flushNow();
      const writer = t.deps.database.embedded?.writer;
      const writesBefore = writer?.sent;
      t.statements.length = 0;
      for (let i = 0; i < 5; i++) assert.equal((await t.app.inject({ method: i % 2 ? 'HEAD' : 'GET', url: `/${link.code}` })).statusCode, 301);
      assert.deepEqual(t.statements, []);
      assert.equal(writer?.sent, writesBefore);
      assert.equal(t.deps.analytics?.buffer.size, 5);
      // The same counters see the flush: they would have seen a write on the redirect path.
      await t.deps.analytics?.flusher.flushNow();
      // PostgreSQL runs the visits INSERT itself; SQLite hands the batch to its writer thread as one task.
      assert.ok(t.statements.some((sql) => /^(insert into "visits"|task recordVisits)/i.test(sql)), t.statements.join('\n'));
      if (writer) assert.ok(writer.sent > writesBefore!);
  });
});

describe('when the database cannot be reached', () => {
  test('a cache miss answers 503 with Retry-After while cached links keep redirecting', async (context) => {
    const t = await createTestApp(context);
      const cached = await insertLink(t.deps);
      const uncached = await insertLink(t.deps);
      await t.app.inject({ url: `/${cached.code}` });
      await t.deps.database.close();
      const miss = await t.app.inject({ url: `/${uncached.code}` });
      assert.equal(miss.statusCode, 503);
      assert.equal(miss.headers['retry-after'], '5');
      assert.equal(miss.json().code, 'store_unavailable');
      assert.equal((await t.app.inject({ url: `/${cached.code}` })).statusCode, 301);
      const ready = await t.app.inject({ url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      const create = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/' } });
      assert.equal(create.statusCode, 503);
      assert.ok(create.headers['retry-after']);
  });
});
