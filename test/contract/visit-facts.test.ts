import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import type { VisitFacts } from '../../src/core/visit-ports.js';
import { batchOfVisits } from '../../src/core/visit-batch.js';
import { visitWriterFor } from '../../src/storage/visits/visit-writer.js';
import type { OpenDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrations/index.js';
import { visitFactsIds } from '../../src/storage/visits/visit-facts.js';
import { visitsWithFacts } from '../support/visit-rows.js';
import { STORE_BACKENDS, type StoreBackend } from '../support/store-backends.js';
import { type TeardownScope } from '../support/teardown.js';

const chrome: VisitFacts = { visitorClass: 'human', referrerHost: 'news.example', browser: 'Chrome', os: 'Windows', device: 'desktop' };
const unknown: VisitFacts = { visitorClass: 'human', referrerHost: null, browser: null, os: null, device: null };
const crawler: VisitFacts = { visitorClass: 'bot', referrerHost: null, browser: null, os: null, device: 'bot' };

async function insertLinks(db: Kysely<any>, codes: readonly string[]): Promise<number[]> {
  const links = codes.map((code) => ({
    domain: 'x', code, original_url: `https://example.com/${code}`, normalized_url: `https://example.com/${code}`,
    link_type: 'PERMANENT', status: 'ACTIVE', created_at: 1, updated_at: 1,
  }));
  return (await db.insertInto('links').values(links).returning('id').execute()).map((row) => Number(row.id));
}

async function columnsOf(database: OpenDatabase, table: string): Promise<string[]> {
  const { rows } = database.dialect === 'sqlite'
    ? await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(database.db)
    : await sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = ${table}`.execute(database.db);
  return rows.map((row) => row.name).sort();
}

const factsRows = (database: OpenDatabase) => database.db.selectFrom('visit_facts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow().then((row) => Number(row.n));

/** Runs `use` on a database of its own, migrated to the latest migration or up to `upTo`, removed when `scope` ends. */
async function withDatabase(scope: TeardownScope, backend: StoreBackend, use: (database: OpenDatabase) => Promise<void>, upTo?: string): Promise<void> {
  await use(await backend.open(scope, upTo));
}

for (const backend of STORE_BACKENDS) {
  describe(`visit facts on ${backend.name} (migration 009)`, () => {
    test('a visit row is four numbers: its facts are a visit_facts row', (context) => withDatabase(context, backend, async (database) => {
      assert.deepEqual(await columnsOf(database, 'visits'), ['facts_id', 'id', 'latency_ms', 'link_id', 'visited_at']);
    }));

    test('each distinct set of facts is stored once, unknown values included, however many flushes carry it', (context) => withDatabase(context, backend, async (database) => {
      const [linkId] = await insertLinks(database.db, ['a']);
      const visit = (facts: VisitFacts, visitedAt: number) => ({ ...facts, linkId: linkId!, visitedAt, latencyMs: 1 });
      const store = visitWriterFor(database);
      await store.recordBatch(batchOfVisits([visit(chrome, 1), visit(unknown, 2), visit(crawler, 3)]));
      await store.recordBatch(batchOfVisits([visit(unknown, 4), visit(chrome, 5)]));
      assert.equal(await factsRows(database), 3);
      const rows = await visitsWithFacts(database.db).execute();
      assert.deepEqual(rows.map((r) => [Number(r.visited_at), r.visitor_class, r.referrer_host, r.browser, r.os, r.device]), [
        [1, 'human', 'news.example', 'Chrome', 'Windows', 'desktop'],
        [2, 'human', null, null, null, null],
        [3, 'bot', null, null, null, 'bot'],
        [4, 'human', null, null, null, null],
        [5, 'human', 'news.example', 'Chrome', 'Windows', 'desktop'],
      ]);
      // The same set given twice in one call, next to a new one: one id each, in the order asked.
      const ids = await visitFactsIds(database.db, [crawler, { ...crawler, visitorClass: 'preview' }, crawler]);
      assert.equal(ids[0], ids[2]);
      assert.notEqual(ids[0], ids[1]);
      assert.equal(await factsRows(database), 4);
    }));

    test("an empty value is stored and matched as unknown, on the writer's path and the other", (context) => withDatabase(context, backend, async (database) => {
      const [linkId] = await insertLinks(database.db, ['a']);
      const blank: VisitFacts = { visitorClass: 'preview', referrerHost: '', browser: '', os: null, device: 'bot' };
      await visitWriterFor(database).recordBatch(batchOfVisits([{ ...blank, linkId: linkId!, visitedAt: 1, latencyMs: 1 }]));
      const rows = await visitsWithFacts(database.db).execute();
      assert.deepEqual(rows.map((r) => [r.visitor_class, r.referrer_host, r.browser, r.os, r.device]), [['preview', null, null, null, 'bot']]);
      const [id] = await visitFactsIds(database.db, [{ ...blank, referrerHost: null, browser: null }]);
      const { facts_id: stored } = await database.db.selectFrom('visits').select('facts_id').executeTakeFirstOrThrow();
      assert.equal(id, Number(stored));
      const [added] = await visitFactsIds(database.db, [{ visitorClass: 'bot', referrerHost: '', browser: null, os: '', device: null }]);
      const row = await database.db.selectFrom('visit_facts').selectAll().where('id', '=', added!).executeTakeFirstOrThrow();
      assert.deepEqual([row.referrer_host, row.os], [null, null]);
    }));

    test("existing visits keep their facts: one visit_facts row per distinct set, '' read as unknown", (context) => withDatabase(context, backend, async (database) => {
      const db = database.db as Kysely<any>; // the schema as it was before 009
      const [a, b] = await insertLinks(db, ['a', 'b']);
      const wide = [
        [a, 'human', 'news.example', 'Firefox', 'Linux', 'desktop'],
        [b, 'human', 'news.example', 'Firefox', 'Linux', 'desktop'],
        [a, 'bot', null, null, null, 'bot'],
        [a, 'human', null, null, null, null],
        [b, 'human', '', null, null, null],
        [b, 'preview', 'chat.example', null, null, 'bot'],
      ] as const;
      await db.insertInto('visits').values(wide.map(([linkId, visitorClass, referrerHost, browser, os, device], i) => ({
        link_id: linkId, visited_at: 1_000 + i, visitor_class: visitorClass, referrer_host: referrerHost, browser, os, device, latency_ms: i,
      }))).execute();

      await migrateToLatest(database.db, database.dialect);

      const rows = await visitsWithFacts(database.db).execute();
      assert.deepEqual(rows.map((r) => [Number(r.link_id), r.visitor_class, r.referrer_host, r.browser, r.os, r.device, Number(r.latency_ms)]), wide.map(
        ([linkId, visitorClass, referrerHost, browser, os, device], i) => [linkId, visitorClass, referrerHost || null, browser, os, device, i],
      ));
      assert.equal(await factsRows(database), 4);
      assert.deepEqual(await columnsOf(database, 'visits'), ['facts_id', 'id', 'latency_ms', 'link_id', 'visited_at']);
    }, '008_visit_ranges'));
  });

  describe(`when each set of facts was last used, on ${backend.name} (migration 010)`, () => {
    const lastUsed = async (database: OpenDatabase) => {
      const rows = await database.db.selectFrom('visit_facts').select(['referrer_host', 'visitor_class', 'last_used_at']).orderBy('referrer_host').orderBy('visitor_class').execute();
      return rows.map((row) => [row.referrer_host, row.visitor_class, Number(row.last_used_at)]);
    };

    test('a flush moves each set it uses to its latest visit, never back, and adds no row for sets of visits it does not store', (context) => withDatabase(context, backend, async (database) => {
      const [linkId] = await insertLinks(database.db, ['a']);
      const store = visitWriterFor(database);
      const visit = (facts: VisitFacts, visitedAt: number, id = linkId!) => ({ ...facts, linkId: id, visitedAt, latencyMs: 1 });
      await store.recordBatch(batchOfVisits([visit(chrome, 5_000), visit(chrome, 9_000), visit(crawler, 7_000), visit(unknown, 8_000, 999_999)]));
      const first = new Map((await lastUsed(database)).map(([host, , at]) => [host, at]));
      assert.deepEqual([first.get('news.example'), first.get(null), first.size], [9_000, 7_000, 2], 'the unknown set of a link that is gone got no row');
      await store.recordBatch(batchOfVisits([visit(chrome, 6_000), visit(crawler, 12_000)]));
      const second = new Map((await lastUsed(database)).map(([host, , at]) => [host, at]));
      assert.deepEqual([second.get('news.example'), second.get(null), second.size], [9_000, 12_000, 2]);
    }));

    test('one set listed twice in a batch (two User-Agents of one browser) gets the later of its uses', (context) => withDatabase(context, backend, async (database) => {
      const [linkId] = await insertLinks(database.db, ['a']);
      await visitWriterFor(database).recordBatch({
        size: 2, linkIds: Float64Array.of(linkId!, linkId!), visitedAt: Float64Array.of(4_000, 11_000), latencyMs: Float64Array.of(1, 1),
        factsIndex: Uint32Array.of(0, 1), facts: [chrome, { ...chrome }],
      });
      assert.deepEqual(await lastUsed(database), [['news.example', 'human', 11_000]]);
    }));

    test("existing sets get their latest visit's time, and a set no visit uses gets 0", (context) => withDatabase(context, backend, async (database) => {
      const db = database.db as Kysely<any>; // the schema as it was before 010
      const [a] = await insertLinks(db, ['a']);
      const facts = await db.insertInto('visit_facts').values([
        { visitor_class: 'human', referrer_host: 'used.example' }, { visitor_class: 'human', referrer_host: 'unused.example' },
      ]).returning('id').execute();
      const used = Number(facts[0]!.id);
      await db.insertInto('visits').values([3_000, 1_000, 2_000].map((visitedAt) => ({ link_id: a, visited_at: visitedAt, facts_id: used, latency_ms: 1 }))).execute();

      await migrateToLatest(database.db, database.dialect);

      assert.deepEqual(await lastUsed(database), [['unused.example', 'human', 0], ['used.example', 'human', 3_000]]);
    }, '009_visit_facts'));
  });
}
