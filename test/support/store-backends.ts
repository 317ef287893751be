import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqlite, type OpenDatabase } from '../../src/storage/database.js';
import { Migrator } from 'kysely';
import { migrateToLatest, migrationsFor } from '../../src/storage/migrations/index.js';
import { openPostgres } from '../../src/storage/postgres-database.js';
import { createTestDatabase } from './postgres.js';
import { onTeardown, once, type TeardownScope } from './teardown.js';

export interface StoreBackend {
  readonly name: 'sqlite' | 'postgres';
  /**
   * A database of its own, migrated to the latest migration or only up to `upTo` (a migration's
   * name); its `close` also removes the file or drops the database, and `scope` calls it when it ends.
   */
  open(scope: TeardownScope, upTo?: string): Promise<OpenDatabase>;
}

async function migrated(database: OpenDatabase, upTo: string | undefined): Promise<OpenDatabase> {
  try {
    if (upTo === undefined) await migrateToLatest(database.db, database.dialect);
    else {
      const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrationsFor(database.dialect) } });
      const { error } = await migrator.migrateTo(upTo);
      if (error) throw error;
    }
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

const sqlite: StoreBackend = {
  name: 'sqlite',
  async open(scope, upTo) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-contract-'));
    const database = openSqlite(path.join(dir, 'linkforge.db'));
    const close = once(async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    onTeardown(scope, close);
    return migrated({ ...database, close }, upTo);
  },
};

// createTestDatabase throws when the server cannot be reached, so a missing PostgreSQL fails the suite.
const postgres: StoreBackend = {
  name: 'postgres',
  async open(scope, upTo) {
    const testDatabase = await createTestDatabase();
    const database = openPostgres(testDatabase.url, { poolMax: 10, poolMin: 0, statementTimeoutMs: 10_000, connectTimeoutMs: 5_000 });
    const close = once(async () => {
      await database.close();
      await testDatabase.drop();
    });
    onTeardown(scope, close);
    return migrated({ ...database, close }, upTo);
  },
};

export const STORE_BACKENDS: readonly StoreBackend[] = [sqlite, postgres];
