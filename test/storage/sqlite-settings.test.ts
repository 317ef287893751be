import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { isMarkable, isPurgeable } from '../../src/storage/cleanup-store.js';
import { PAGE_CACHE_KIB } from '../../src/storage/sqlite-connection.js';
import { createTestApp } from '../support/test-app.js';

describe('the embedded SQLite database', () => {
  test('runs in WAL mode with synchronous=FULL, foreign keys and a bounded page cache on each connection; only the writer waits for locks (RELIABILITY D-02)', async (context) => {
    const t = await createTestApp(context, { DB_WRITE_TIMEOUT: '4s' });
      // Inside a transaction a pragma runs on the writer thread; the reader is asked directly.
      await t.deps.database.db.transaction().execute(async (writer) => {
        const pragma = async (name: string) => Object.values((await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(writer)).rows[0] ?? {})[0];
        assert.equal(await pragma('journal_mode'), 'wal');
        assert.equal(await pragma('synchronous'), 2); // FULL
        assert.equal(await pragma('foreign_keys'), 1);
        // The writer waits for a lock held elsewhere until the earliest queued deadline: at most DB_WRITE_TIMEOUT.
        const busyTimeout = Number(await pragma('busy_timeout'));
        assert.ok(busyTimeout > 0 && busyTimeout <= 4000, `busy_timeout ${busyTimeout}`);
        assert.equal(await pragma('query_only'), 0);
        assert.equal(await pragma('cache_size'), -PAGE_CACHE_KIB.writer);
      });
      const reader = t.deps.database.embedded!.reader;
      const readerPragma = (name: string) => Object.values(reader.all<Record<string, unknown>>(`pragma ${name}`, [])[0] ?? {})[0];
      assert.equal(readerPragma('synchronous'), 2);
      assert.equal(readerPragma('foreign_keys'), 1);
      assert.equal(readerPragma('busy_timeout'), 0, 'the event loop never waits for a lock');
      assert.equal(readerPragma('query_only'), 1);
      assert.equal(readerPragma('cache_size'), -PAGE_CACHE_KIB.reader);
  });

  test('a code is unique per domain and a workspace holds one link per canonical URL, in the schema itself', async (context) => {
    const t = await createTestApp(context);
      const { rows } = await sql<{ name: string; unique: number }>`select name, "unique" from pragma_index_list('links')`.execute(t.deps.database.db);
      const unique = rows.filter((row) => row.unique === 1).map((row) => row.name).sort();
      assert.deepEqual(unique, ['links_domain_code_key', 'links_workspace_url_key']);
      const info = await sql<{ name: string; notnull: number }>`select name, "notnull" from pragma_table_info('links')`.execute(t.deps.database.db);
      assert.equal(info.rows.find((column) => column.name === 'domain')?.notnull, 1);
  });
});

describe('the indexes of links', () => {
  test('are only those a query uses, and every reaper and lookup query is served by one', async (context) => {
    const t = await createTestApp(context);
      const db = t.deps.database.db;
      const indexes = await sql<{ name: string; partial: number }>`select name, partial from pragma_index_list('links') where origin = 'c'`.execute(db);
      assert.deepEqual(indexes.rows.map((row) => `${row.name}${row.partial ? ' (partial)' : ''}`).sort(), [
        'links_domain_code_key', 'links_health_check_idx', 'links_status_deleted_at_idx', 'links_status_expires_at_idx',
        'links_workspace_url_key (partial)',
      ], 'a create writes five B-trees, an anonymous one four');
      const queries = [
        db.selectFrom('links').select('id').where(isMarkable(5)).orderBy('expires_at').orderBy('id').limit(10),
        db.selectFrom('links').select('id').where(isPurgeable(5)).limit(10),
        db.selectFrom('links').selectAll().where('domain', '=', 'd').where('code', '=', 'c'),
        db.selectFrom('links').selectAll().where('workspace_id', '=', 1).where('normalized_url', '=', 'u'),
        db.selectFrom('links').selectAll().where('workspace_id', 'in', [1, 2]).orderBy('id', 'desc').limit(10),
        // The health check's pick (health-check-store.ts), oldest check first.
        db.selectFrom('links').select('id').where('status', '=', 'ACTIVE').orderBy('last_checked_at', (ob) => ob.asc().nullsFirst()).orderBy('id').limit(10),
      ];
      for (const query of queries) {
        const { sql: text, parameters } = query.compile();
        const plan = t.deps.database.embedded!.reader.all<{ detail: string }>(`explain query plan ${text}`, parameters).map((row) => row.detail);
        assert.ok(plan.every((step) => !/^SCAN links\b/.test(step)), `${text}: ${plan.join(' | ')}`);
      }
  });
});
