import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KyselyCleanupStore } from '../../src/storage/cleanup-store.js';
import { createTestApp } from '../support/test-app.js';
import { DAY, expiredLinks } from '../support/cleanup-fixtures.js';

// The ReaperStore contract itself runs on every backend in test/contract/reaper-store.test.ts.
describe('KyselyCleanupStore on the embedded database', () => {
  test('each batch is one transaction on the writer thread; the reader runs none of its statements', async (context) => {
    const t = await createTestApp(context, {}, { database: 'sqlite' });
    const store = new KyselyCleanupStore(t.deps.database.db, 'sqlite');
      await expiredLinks(t.deps, 3, 2 * DAY);
      const writer = t.deps.database.embedded!.writer;
      const sentBefore = writer.sent;
      t.statements.length = 0;
      await store.markExpiredBatch({ now: t.clock.now(), limit: 10, after: undefined });
      await store.purgeBatch({ cutoff: t.clock.now() - DAY, limit: 10, archivedAt: t.clock.now() });
      await store.deleteVisitsBatch({ before: t.clock.now() - DAY, limit: 10 });
      assert.equal(writer.sent - sentBefore, 3, 'one writer transaction per batch');
      assert.deepEqual(t.statements.map((s) => s.trim().split(/\s+/)[0]!.toLowerCase()),
        // mark; purge: pick, archive, delete links, keep what was claimed meanwhile, their visits, their visit ranges; retention: visits, ranges
        ['update', 'select', 'insert', 'delete', 'select', 'delete', 'delete', 'delete', 'delete'], 'every statement went to the writer, in order');
  });
});
