import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { batchOfVisits } from '../../src/core/visit-batch.js';
import type { Visit } from '../../src/core/visit-ports.js';
import { visitWriterFor } from '../../src/storage/visits/visit-writer.js';
import { MAX_LINKS_PER_SLICE, batchSlices } from '../../src/storage/visits/visit-batch-slices.js';
import { createTestApp } from '../support/test-app.js';

const visitOf = (linkId: number, i: number): Visit => ({
  linkId, visitedAt: 1_800_000_000_000 + i, latencyMs: i % 7, visitorClass: 'human',
  referrerHost: i % 2 === 0 ? 'news.example' : null, browser: 'Firefox', os: 'Linux', device: 'desktop',
});

describe('the visit flush on the writer thread, in slices', () => {
  test('slices are consecutive views of the batch, none with more distinct links than asked, sharing its facts', () => {
    const batch = batchOfVisits(Array.from({ length: 25 }, (_, i) => visitOf(i + 1, i)));
    const slices = [...batchSlices(batch, 10)];
    assert.deepEqual(slices.map((slice) => slice.size), [10, 10, 5]);
    assert.deepEqual(slices.flatMap((slice) => [...slice.linkIds]), [...batch.linkIds]);
    assert.deepEqual(slices.flatMap((slice) => [...slice.factsIndex]), [...batch.factsIndex]);
    assert.ok(slices.every((slice) => slice.facts === batch.facts));
    assert.deepEqual([...batchSlices(batch, 25)], [batch]);
  });

  test('a batch of many visits to a few links stays whole: their counters and roll-ups are written once', () => {
    const batch = batchOfVisits(Array.from({ length: 1_000 }, (_, i) => visitOf(1 + (i % 3), i)));
    assert.deepEqual([...batchSlices(batch, 10)], [batch]);
    const mixed = batchOfVisits([1, 2, 1, 3, 2, 4, 1].map(visitOf));
    assert.deepEqual([...batchSlices(mixed, 3)].map((slice) => [...slice.linkIds]), [[1, 2, 1, 3, 2], [4, 1]]);
  });

  test('a flush of 60,000 visits to distinct links is written whole (rolled up at once, it ran the writer out of heap)', async (context) => {
    const t = await createTestApp(context, {}, { database: 'sqlite' });
      const db = t.deps.database.db;
      const links = 6 * MAX_LINKS_PER_SLICE;
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${links})
        insert into links (domain, code, original_url, normalized_url, link_type, status, created_at, updated_at)
        select 'default', 'slice' || i, 'https://example.com/' || i, 'https://example.com/' || i, 'PERMANENT', 'ACTIVE', 0, 0 from n`.execute(db);
      const ids = (await db.selectFrom('links').select('id').orderBy('id').execute()).map((row) => Number(row.id));
      assert.equal(ids.length, links);
      // Two visits of the first link land in different slices: its mean is merged across them.
      const visits = [...ids.map(visitOf), visitOf(ids[0]!, 3)];
      await visitWriterFor(t.deps.database).recordBatch(batchOfVisits(visits));

      const counted = await db.selectFrom('links').select([sql<number>`sum(redirect_count)`.as('redirects'), sql<number>`count(*)`.as('visited')])
        .where('redirect_count', '>', 0).executeTakeFirstOrThrow();
      assert.deepEqual([Number(counted.redirects), Number(counted.visited)], [links + 1, links]);
      const first = await db.selectFrom('links').select(['redirect_count', 'avg_redirect_ms']).where('id', '=', ids[0]!).executeTakeFirstOrThrow();
      assert.deepEqual([Number(first.redirect_count), Number(first.avg_redirect_ms)], [2, (0 + 3) / 2]);
      const rows = await db.selectFrom('visits').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(rows.n), links + 1);
      const global = await db.selectFrom('global_stats').select('total_redirects').where('id', '=', 1).executeTakeFirstOrThrow();
      assert.equal(Number(global.total_redirects), links + 1);
  });
});
