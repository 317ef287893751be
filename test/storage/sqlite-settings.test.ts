import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { sql } from 'kysely';
import { openSqlite } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrations.js';
import { createTestApp } from '../support/test-app.js';

describe('the embedded SQLite database', () => {
  test('runs in WAL mode with synchronous=FULL, a busy timeout and foreign keys (RELIABILITY D-02)', async () => {
    const t = await createTestApp();
    try {
      const pragma = async (name: string) => {
        const { rows } = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(t.deps.database.db);
        return Object.values(rows[0] ?? {})[0];
      };
      assert.equal(await pragma('journal_mode'), 'wal');
      assert.equal(await pragma('synchronous'), 2); // FULL
      assert.equal(await pragma('busy_timeout'), 5000);
      assert.equal(await pragma('foreign_keys'), 1);
    } finally {
      await t.close();
    }
  });

  test('migrations apply once: a second start, or two at once, change nothing (RELIABILITY D-06)', async () => {
    const t = await createTestApp();
    const file = path.join(t.dataDir, 'linkforge.db');
    const second = openSqlite(file);
    const third = openSqlite(file);
    try {
      await Promise.all([migrateToLatest(second.db, 'sqlite'), migrateToLatest(third.db, 'sqlite')]);
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(second.db);
      assert.deepEqual(rows.map((row) => row.name), ['001_initial_schema', '002_reaper_indexes', '004_client_side_route_fragments']);
    } finally {
      await second.close();
      await third.close();
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
