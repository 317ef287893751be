import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { migrateToLatest } from '../../src/storage/migrations/index.js';
import { visitIdsOf } from '../../src/storage/visits/visit-ranges.js';
import { STORE_BACKENDS } from '../support/store-backends.js';

for (const backend of STORE_BACKENDS) {
  describe(`visit ranges on ${backend.name} (migration 008)`, () => {
    test("a link's visits are read through its ranges and the visits' primary key, never a scan of visits", async (context) => {
      const database = await backend.open(context);
        const query = visitIdsOf(database.db, [1, 2, 3]).compile();
        const plan = await database.db.transaction().execute(async (trx) => {
          const explained = sql.raw(query.sql.replace(/\$(\d+)|\?/g, (_, n?: string) => String(n ?? 1)));
          if (backend.name === 'sqlite') return (await sql<{ detail: string }>`explain query plan ${explained}`.execute(trx)).rows.map((r) => r.detail);
          // Empty tables: without this PostgreSQL rightly prefers a scan, which says nothing about the plan that matters.
          await sql`set local enable_seqscan = off`.execute(trx);
          return (await sql<{ 'QUERY PLAN': string }>`explain ${explained}`.execute(trx)).rows.map((r) => r['QUERY PLAN']);
        });
        const text = plan.join("\n");
        assert.ok(!/SCAN v\b|Seq Scan on visits/.test(text), `no scan of visits:\n${text}`);
        assert.ok(/SEARCH v USING INTEGER PRIMARY KEY|Index (Only )?Scan using visits_pkey/.test(text), `visits by id:\n${text}`);
    });

    test('existing visits get a range per run of consecutive rows of one link, and the index on visits.link_id goes', async (context) => {
      const database = await backend.open(context, '007_cleanup_visits_and_check_order');
        const links = ['a', 'b'].map((code) => ({
          domain: 'x', code, original_url: `https://example.com/${code}`, normalized_url: `https://example.com/${code}`,
          link_type: 'PERMANENT' as const, status: 'ACTIVE' as const, created_at: 1, updated_at: 1,
        }));
        const [a, b] = (await database.db.insertInto('links').values(links).returning('id').execute()).map((row) => Number(row.id));
        const order = [a, a, b, a, b, b, a];
        const visits = order.map((linkId, i) => ({ link_id: linkId!, visited_at: 1_000 + i, referrer_host: null, browser: null, os: null, device: null, visitor_class: 'human' as const, latency_ms: 1 }));
        // Visit rows as they were before migration 009 (visit_facts), which the row types describe now.
        const ids = (await (database.db as Kysely<any>).insertInto('visits').values(visits).returning('id').execute()).map((row) => Number(row.id));

        await migrateToLatest(database.db, database.dialect);

        const ranges = await database.db.selectFrom('visit_ranges').select(['link_id', 'first_id', 'last_id']).orderBy('first_id').execute();
        assert.deepEqual(ranges.map((r) => [Number(r.link_id), Number(r.first_id), Number(r.last_id)]), [
          [a, ids[0], ids[1]], [b, ids[2], ids[2]], [a, ids[3], ids[3]], [b, ids[4], ids[5]], [a, ids[6], ids[6]],
        ]);
        const indexes = database.dialect === 'sqlite'
          ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'visits'`.execute(database.db)
          : await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'visits'`.execute(database.db);
        assert.ok(!indexes.rows.some((row) => row.name === 'visits_link_time_idx'), JSON.stringify(indexes.rows));
    });
  });
}
