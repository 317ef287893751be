import { test } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { setTimeout as sleep, setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { DEFAULT_DOMAIN } from '../../src/core/link.js';
import type { Database } from '../../src/storage/schema.js';
import type { SqliteWriter } from '../../src/storage/sqlite-writer.js';
import { createTestApp } from '../support/test-app.js';
import { onTeardown } from '../support/teardown.js';

/** Resolves once `count` requests wait at the writer thread: a turn of the event loop at a time, never a timer. */
async function untilQueued(writer: SqliteWriter, count: number): Promise<void> {
  while (writer.queueDepth < count) await nextTurn();
}

function insertLinkRow(db: Kysely<Database>, code: string) {
  const url = `https://example.com/${code}`;
  return db.insertInto('links').values({
    domain: DEFAULT_DOMAIN, code, original_url: url, normalized_url: url, link_type: 'PERMANENT', status: 'ACTIVE',
    workspace_id: null, owner_id: null, claim_token_hash: null, created_at: 1, updated_at: 1, expires_at: null,
    deleted_at: null, destination_status: null, last_checked_at: null,
  }).executeTakeFirstOrThrow().then(() => 'stored', (error: { code?: string }) => error.code);
}

/** A transaction that keeps the writer busy for `ms` (never quiet for long, so it is not abandoned). */
function busyTransaction(db: Kysely<Database>, ms: number): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      await trx.updateTable('links').set({ updated_at: Date.now() }).where('code', '=', 'nothing').execute();
      await sleep(100);
    }
  });
}

const idOf = async (db: Kysely<Database>, code: string) => Number((await db.selectFrom('links').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);

// ADR 0023: time in the writer's queue never fails a write; only a lock held by another connection does.
test('writes queued behind work that holds the writer longer than the write timeout all commit, foreground and background', { timeout: 60_000 }, async (context) => {
  const t = await createTestApp(context, { DB_WRITE_TIMEOUT: '1s' }, { database: 'sqlite' });
  const { db, backgroundDb, embedded } = t.deps.database;
  const holding = busyTransaction(backgroundDb, 2_500);
  await untilQueued(embedded!.writer, 1);
  const queued = [insertLinkRow(backgroundDb, 'slow-queue-bg'), insertLinkRow(db, 'slow-queue-fg')];
  await holding;
  assert.deepEqual(await Promise.all(queued), ['stored', 'stored']);
});

test('a client\'s write sent after background writes runs before them', { timeout: 60_000 }, async (context) => {
  const t = await createTestApp(context, {}, { database: 'sqlite' });
  const { db, backgroundDb, embedded } = t.deps.database;
  const holding = busyTransaction(db, 300);
  await untilQueued(embedded!.writer, 1);
  const background = [insertLinkRow(backgroundDb, 'order-bg-1'), insertLinkRow(backgroundDb, 'order-bg-2')];
  await untilQueued(embedded!.writer, 3);
  const foreground = insertLinkRow(db, 'order-fg');
  await holding;
  assert.deepEqual(await Promise.all([...background, foreground]), ['stored', 'stored', 'stored']);
  const fg = await idOf(db, 'order-fg');
  assert.ok(fg < await idOf(db, 'order-bg-1') && fg < await idOf(db, 'order-bg-2'), 'the foreground insert took the first id');
});

test('a background write still fails as busy once another connection held the write lock for the write timeout', { timeout: 60_000 }, async (context) => {
  const t = await createTestApp(context, { DB_WRITE_TIMEOUT: '1s' }, { database: 'sqlite' });
  const other = new SQLite(t.config.database.kind === 'sqlite' ? t.config.database.path : assert.fail());
  onTeardown(context, () => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
  });
  other.exec('BEGIN IMMEDIATE');
  const started = Date.now();
  assert.equal(await insertLinkRow(t.deps.database.backgroundDb, 'locked-bg'), 'SQLITE_BUSY_TIMEOUT');
  assert.ok(Date.now() - started < 4_000, 'it gave up after its own timeout');
});
