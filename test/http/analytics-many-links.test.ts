import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DEFAULT_DOMAIN } from '../../src/core/link.js';
import { createTestApp } from '../support/test-app.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0';
const LINKS = 2_500;

// A flush over more links than one write carries is written in parts (on SQLite queued to the
// writer together, ADR 0023): every visit is counted once, and each link's counters and mean are
// those of all its visits, whichever part its visits went in.
test(`a flush of visits over ${LINKS} links, written in parts, counts every visit once on each link`, async (context) => {
  const t = await createTestApp(context);
  const db = t.deps.database.db;
  await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${LINKS})
    insert into links (domain, code, original_url, normalized_url, link_type, status, created_at, updated_at)
    select ${DEFAULT_DOMAIN}, 'many' || i, 'https://example.com/' || i, 'https://example.com/' || i, 'PERMANENT', 'ACTIVE', 0, 0 from n`.execute(db);
  const ids = (await db.selectFrom('links').select('id').orderBy('id').execute()).map((row) => Number(row.id));
  const analytics = t.deps.analytics ?? assert.fail('analytics are on by default');
  // Link k gets 1 + (k mod 3) visits, arriving interleaved; the latencies of link k are k mod 7 and 2 · (k mod 7).
  const expected = new Map(ids.map((id, k) => [id, 1 + (k % 3)]));
  for (let round = 0; round < 3; round++) {
    ids.forEach((id, k) => { if (round < expected.get(id)!) analytics.buffer.record(id, (round === 0 ? 1 : 2) * (k % 7), FIREFOX, undefined); });
  }
  const total = [...expected.values()].reduce((sum, n) => sum + n, 0);
  await analytics.flusher.flushNow();

  const rows = await db.selectFrom('links').select(['id', 'redirect_count', 'human_count', 'avg_redirect_ms']).orderBy('id').execute();
  ids.forEach((id, k) => {
    const row = rows[k]!;
    const visits = expected.get(id)!;
    const latencies = [1, 2, 2].slice(0, visits).map((factor) => factor * (k % 7));
    assert.deepEqual([Number(row.redirect_count), Number(row.human_count)], [visits, visits], `link ${id}`);
    assert.ok(Math.abs(Number(row.avg_redirect_ms) - latencies.reduce((a, b) => a + b, 0) / visits) < 1e-9, `mean of link ${id}`);
  });
  const visitRows = await db.selectFrom('visits').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  assert.equal(Number(visitRows.n), total);
  const global = await db.selectFrom('global_stats').select('total_redirects').where('id', '=', 1).executeTakeFirstOrThrow();
  assert.equal(Number(global.total_redirects), total);
  assert.equal(analytics.buffer.dropped, 0);
});
