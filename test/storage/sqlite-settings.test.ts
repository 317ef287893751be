import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { createTestApp } from '../support/test-app.js';

describe('the embedded SQLite database', () => {
  test('runs in WAL mode with synchronous=FULL and foreign keys; only the writer waits for locks (RELIABILITY D-02)', async () => {
    const t = await createTestApp({ DB_WRITE_TIMEOUT: '4s' });
    try {
      const pragma = async (name: string, db: Kysely<any>) => {
        const { rows } = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(db);
        return Object.values(rows[0] ?? {})[0];
      };
      // Outside a transaction a pragma read runs on the main thread's reader; inside one, on the writer.
      const reader = t.deps.database.db;
      await t.deps.database.db.transaction().execute(async (writer) => {
        for (const db of [reader, writer]) {
          assert.equal(await pragma('journal_mode', db), 'wal');
          assert.equal(await pragma('synchronous', db), 2); // FULL
          assert.equal(await pragma('foreign_keys', db), 1);
        }
        assert.equal(await pragma('busy_timeout', writer), 4000);
        assert.equal(await pragma('query_only', writer), 0);
      });
      assert.equal(await pragma('busy_timeout', reader), 0, 'the event loop never waits for a lock');
      assert.equal(await pragma('query_only', reader), 1);
    } finally {
      await t.close();
    }
  });

  test('a code is unique per domain and a workspace holds one link per canonical URL, in the schema itself', async () => {
    const t = await createTestApp();
    try {
      const { rows } = await sql<{ name: string; unique: number }>`select name, "unique" from pragma_index_list('links')`.execute(t.deps.database.db);
      const unique = rows.filter((row) => row.unique === 1).map((row) => row.name).sort();
      assert.deepEqual(unique, ['links_domain_code_key', 'links_workspace_url_key']);
      const info = await sql<{ name: string; notnull: number }>`select name, "notnull" from pragma_table_info('links')`.execute(t.deps.database.db);
      assert.equal(info.rows.find((column) => column.name === 'domain')?.notnull, 1);
    } finally {
      await t.close();
    }
  });
});
