import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openSqlite } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrations/index.js';

const SCRIPT = path.join(import.meta.dirname, '..', 'support', 'migrate-on-signal.ts');
const ROUNDS = 3;

interface Migrator { child: ChildProcess; output: () => string; exited: Promise<number | null> }

function startMigrator(file: string): Promise<Migrator> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, file], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', () => { if (output.includes('ready\n')) resolve({ child, output: () => output, exited }); });
    child.on('exit', (code) => reject(new Error(`migrator exited with ${code} before the start:\n${output}`)));
  });
}

/** Everything a migration leaves behind: the schema objects with their SQL, and the migration records. */
async function snapshot(file: string) {
  const database = openSqlite(file);
  try {
    const schema = await sql<{ type: string; name: string; sql: string | null }>`
      select type, name, sql from sqlite_master where name not like 'sqlite_%' order by type, name`.execute(database.db);
    const migrations = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
    return { schema: schema.rows, migrations: migrations.rows.map((row) => row.name) };
  } finally {
    await database.close();
  }
}

describe('two processes migrating one fresh SQLite file at the same moment (RELIABILITY D-06)', () => {
  test('both exit 0, the schema is complete, and each migration is recorded once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-migrate-race-'));
    try {
      const reference = path.join(dir, 'reference.db');
      const database = openSqlite(reference);
      await migrateToLatest(database.db, 'sqlite');
      await database.close();
      const expected = await snapshot(reference);
      assert.ok(expected.migrations.length >= 2 && expected.schema.some((o) => o.name === 'links'));

      for (let round = 0; round < ROUNDS; round++) {
        const file = path.join(dir, `race-${round}.db`);
        assert.equal(fs.existsSync(file), false);
        const migrators = await Promise.all([startMigrator(file), startMigrator(file)]);
        // Both are loaded and waiting: release them in the same tick.
        for (const { child } of migrators) child.stdin!.write('go\n');
        const codes = await Promise.all(migrators.map((m) => m.exited));
        assert.deepEqual(codes, [0, 0], `round ${round}:\n${migrators.map((m) => m.output()).join('\n---\n')}`);
        assert.deepEqual(await snapshot(file), expected, `round ${round}`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
