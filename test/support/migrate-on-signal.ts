// One process of the migration race in test/storage/concurrent-migrations.test.ts: loads everything,
// says "ready", waits for "go" on stdin, then opens the database file and migrates it, as a server
// starting up would. Exits 0 when the migrations succeeded.
import { openSqlite } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrations/index.js';

const file = process.argv[2];
if (!file) throw new Error('usage: migrate-on-signal.ts <database file>');

process.stdin.once('data', async () => {
  let code = 0;
  const database = openSqlite(file);
  try {
    await migrateToLatest(database.db, 'sqlite');
  } catch (error) {
    console.error(error);
    code = 1;
  } finally {
    await database.close();
  }
  process.exit(code);
});
process.stdout.write('ready\n');
