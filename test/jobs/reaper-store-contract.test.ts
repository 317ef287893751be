import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReaperStore } from '../../src/core/cleanup-ports.js';
import { KyselyReaperStore } from '../../src/storage/reaper-store.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { archiveRows, DAY, expiredLinks, HOUR, linkIds, linkInState, linkRow, statusOf } from '../support/reaper-fixtures.js';

/** The ReaperStore contract, for every backend (PostgreSQL joins with the scaled mode). */
const implementations: Array<[string, (t: TestApp) => ReaperStore & { close?(): Promise<void> }]> = [
  ['KyselyReaperStore on the embedded database', (t) => new KyselyReaperStore(t.deps.database.db)],
];

for (const [name, build] of implementations) {
  describe(`ReaperStore contract: ${name}`, () => {
    let t: TestApp;
    let store: ReaperStore & { close?(): Promise<void> };
    before(async () => {
      t = await createTestApp();
      store = build(t);
    });
    after(async () => {
      await store.close?.();
      await t.close();
    });
    const clear = async () => {
      await t.deps.database.db.deleteFrom('links').execute();
      await t.deps.database.db.deleteFrom('links_archive').execute();
    };

    test('a mark batch marks at most `limit` links and returns their codes and a cursor', async () => {
      await clear();
      const now = t.clock.now();
      const ids = await expiredLinks(t.deps, 3, HOUR);
      const first = await store.markExpiredBatch({ now, limit: 2, after: undefined });
      assert.equal(first.links.length, 2);
      const second = await store.markExpiredBatch({ now, limit: 2, after: first.cursor });
      assert.equal(second.links.length, 1);
      for (const id of ids) assert.equal(await statusOf(t.deps, id), 'EXPIRED');
      assert.equal((await linkRow(t.deps, ids[0]!)).updated_at, now);
    });

    test('a purge batch copies then deletes at most `limit` links; without an archive time it only deletes', async () => {
      await clear();
      const ids = await expiredLinks(t.deps, 3, 2 * DAY);
      await t.deps.database.db.updateTable('links').set({ status: 'EXPIRED' }).execute();
      const archived = await store.purgeBatch({ cutoff: t.clock.now() - DAY, limit: 2, archivedAt: 777 });
      assert.deepEqual(archived, { purged: 2, archived: 2 });
      assert.deepEqual((await archiveRows(t.deps)).map((r) => r.archived_at), [777, 777]);
      const plain = await store.purgeBatch({ cutoff: t.clock.now() - DAY, limit: 2, archivedAt: undefined });
      assert.deepEqual(plain, { purged: 1, archived: 0 });
      assert.equal((await archiveRows(t.deps)).length, 2);
      assert.deepEqual(await linkIds(t.deps), []);
    });

    test('a beforeCommit hook that throws rolls the whole batch back and its own error reaches the caller', async () => {
      await clear();
      const now = t.clock.now();
      const ids = await expiredLinks(t.deps, 2, 2 * DAY);
      const failure = new Error('hook says no');
      let seenRows = -1;
      await assert.rejects(store.markExpiredBatch({ now, limit: 10, after: undefined, beforeCommit: async (rows) => { seenRows = rows; throw failure; } }),
        (error) => error === failure);
      assert.equal(seenRows, 2, 'the hook ran after the writes');
      for (const id of ids) assert.equal(await statusOf(t.deps, id), 'ACTIVE');

      await store.markExpiredBatch({ now, limit: 10, after: undefined });
      await assert.rejects(store.purgeBatch({ cutoff: now - DAY, limit: 10, archivedAt: now, beforeCommit: async () => { throw failure; } }),
        (error) => error === failure);
      assert.deepEqual(await linkIds(t.deps), ids);
      assert.deepEqual(await archiveRows(t.deps), []);
    });

    test('a database error inside a batch rolls it back, is reported, and the next batch works', async () => {
      await clear();
      const now = t.clock.now();
      const [id] = await expiredLinks(t.deps, 1, 2 * DAY);
      const other = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: now - 2 * DAY });
      await t.deps.database.db.updateTable('links').set({ status: 'EXPIRED' }).execute();
      // An archive row with the same id makes the copy break the primary key.
      const row = await linkRow(t.deps, id!);
      await t.deps.database.db.insertInto('links_archive').values({ ...row, archived_at: 1 }).execute();
      await assert.rejects(store.purgeBatch({ cutoff: now - DAY, limit: 10, archivedAt: now }), (error: Error) => {
        assert.match(`${(error as { code?: string }).code} ${error.message}`, /CONSTRAINT|UNIQUE/i);
        return true;
      });
      assert.deepEqual(await linkIds(t.deps), [id, other.id]);
      await t.deps.database.db.deleteFrom('links_archive').execute();
      assert.deepEqual(await store.purgeBatch({ cutoff: now - DAY, limit: 10, archivedAt: now }), { purged: 2, archived: 2 });
    });
  });
}

describe('KyselyReaperStore on the embedded database', () => {
  test('each batch is one transaction on the writer thread; the reader runs none of its statements', async () => {
    const t = await createTestApp();
    try {
      const store = new KyselyReaperStore(t.deps.database.db);
      await expiredLinks(t.deps, 3, 2 * DAY);
      const writer = t.deps.database.embedded!.writer;
      const sentBefore = writer.sent;
      t.statements.length = 0;
      await store.markExpiredBatch({ now: t.clock.now(), limit: 10, after: undefined });
      await store.purgeBatch({ cutoff: t.clock.now() - DAY, limit: 10, archivedAt: t.clock.now() });
      assert.equal(writer.sent - sentBefore, 2, 'one writer transaction per batch');
      assert.deepEqual(t.statements.map((s) => s.trim().split(/\s+/)[0]!.toLowerCase()),
        ['update', 'select', 'insert', 'delete'], 'every statement went to the writer, in order');
    } finally {
      await t.close();
    }
  });
});
