import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { DEFAULT_DOMAIN } from '../../src/core/link.js';
import type { SqliteWriter } from '../../src/storage/sqlite-writer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { insertLink } from '../support/links.js';
import { onTeardown, suiteScope } from '../support/teardown.js';

/** Resolves once `count` writes wait at the writer thread: a turn of the event loop at a time, never a timer. */
async function untilQueued(writer: SqliteWriter, count: number): Promise<void> {
  while (writer.queueDepth < count) await nextTurn();
}

/** ADR 0010: every write of the embedded database goes through one writer thread. */
describe('the embedded database writer', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite); });

  const codes = async (prefix: string) => (await t.deps.database.db.selectFrom('links').select('code')
    .where('code', 'like', `${prefix}%`).orderBy('code').execute()).map((row) => row.code);

  test('writes sent together all commit, and one that breaks a unique index fails alone', async () => {
    await insertLink(t.deps, { code: 'grp-taken' });
    const attempts = Array.from({ length: 40 }, (_, i) => insertLink(t.deps, { code: i === 17 ? 'grp-taken' : `grp-${String(i).padStart(2, '0')}` })
      .then(() => 'stored', (error: Error) => error.message));
    const outcomes = await Promise.all(attempts);
    assert.equal(outcomes.filter((o) => o === 'stored').length, 39);
    assert.match(outcomes[17]!, /code/);
    assert.equal((await codes('grp-')).length, 40, '39 new rows and the one that was there');
  });

  test('a transaction that rolls back undoes only its own writes, not those committed beside it', async () => {
    const failure = new Error('changed my mind');
    const rolledBack = t.deps.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('links').set({ original_url: 'https://example.com/never' }).where('code', 'like', 'grp-%').execute();
      await untilQueued(t.deps.database.embedded!.writer, 2); // the two writes below wait behind the open transaction
      throw failure;
    });
    const beside = Promise.all([insertLink(t.deps, { code: 'side-1' }), insertLink(t.deps, { code: 'side-2' })]);
    await assert.rejects(rolledBack, (error) => error === failure);
    await beside;
    assert.deepEqual(await codes('side-'), ['side-1', 'side-2']);
    const changed = await t.deps.database.db.selectFrom('links').select('code')
      .where('original_url', '=', 'https://example.com/never').execute();
    assert.deepEqual(changed, []);
  });

  test('a statement inside a transaction sees the transaction\'s own writes; readers see them after the commit', async () => {
    await t.deps.database.db.transaction().execute(async (trx) => {
      await trx.insertInto('links').values({
        domain: DEFAULT_DOMAIN, code: 'in-trx', original_url: 'https://example.com/t', normalized_url: 'https://example.com/t',
        link_type: 'TEMPORARY', status: 'ACTIVE', workspace_id: null, owner_id: null, claim_token_hash: null,
        created_at: 1, updated_at: 1, expires_at: null, deleted_at: null, destination_status: null, last_checked_at: null,
      }).execute();
      const inside = await sql<{ n: number }>`select count(*) as n from links where code = 'in-trx'`.execute(trx);
      assert.equal(Number(inside.rows[0]!.n), 1);
      assert.deepEqual(await codes('in-trx'), [], 'not visible outside before the commit');
    });
    assert.deepEqual(await codes('in-trx'), ['in-trx']);
  });

  test('a transaction that waits for a write queued behind it is rolled back after the write timeout, not left hanging', async (context) => {
    // A write's deadline counts from when the writer thread is ready (it boots for a second or more under tsx).
    const quick = await createTestApp(context, { DB_WRITE_TIMEOUT: '1s' });
    const db = quick.deps.database.db;
    const started = Date.now();
    let queued: Promise<string> | undefined;
    const stuck = db.transaction().execute(async (trx) => {
      // Queued behind this very transaction: it can only run once the transaction is given up.
      queued = insertLink(quick.deps, { code: 'trx-first' }).then(() => 'stored', (error: Error) => error.name);
      await queued;
      await trx.updateTable('links').set({ original_url: 'https://example.com/late' }).execute();
    });
    await assert.rejects(stuck, /rolled back/);
    assert.ok(Date.now() - started < 5_000);
    assert.deepEqual(await db.selectFrom('links').select('code').where('original_url', '=', 'https://example.com/late').execute(), []);
    // Whether the queued write still made its own deadline is a matter of milliseconds; either way its answer is true.
    const outcome = await queued!;
    assert.ok(['stored', 'StoreUnavailableError'].includes(outcome), outcome);
    const row = await db.selectFrom('links').select('id').where('code', '=', 'trx-first').executeTakeFirst();
    assert.equal(row !== undefined, outcome === 'stored');
  });

  test('a write that arrives while another waits for a lock held elsewhere waits DB_WRITE_TIMEOUT, not a second timeout after it', async (context) => {
    const quick = await createTestApp(context, { DB_WRITE_TIMEOUT: '3s' }, { database: 'sqlite' });
    const other = new SQLite(quick.config.database.kind === 'sqlite' ? quick.config.database.path : assert.fail());
    onTeardown(context, () => {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    });
    other.exec('BEGIN IMMEDIATE');
    const timed = async (code: string) => {
      const started = Date.now();
      const outcome = await insertLink(quick.deps, { code }).then(() => 'stored', (error: Error) => error.name);
      return { outcome, waitedMs: Date.now() - started };
    };
    const first = timed('lock-a');
    await untilQueued(quick.deps.database.embedded!.writer, 1); // the first write waits for the lock
    const second = await timed('lock-b');
    assert.equal((await first).outcome, 'StoreUnavailableError');
    assert.equal(second.outcome, 'StoreUnavailableError');
    // Its own 3 s, give or take a loaded machine; before, it waited out the first attempt's and then 3 s more (5.7 s).
    assert.ok(second.waitedMs < 4_500, `the second write waited ${second.waitedMs} ms`);
  });

  test('a write acknowledged while redirect lookups share a read snapshot is seen by the next lookup', async () => {
    const { store } = t.deps;
    const writer = t.deps.database.embedded!.writer;
    const insert = `insert into links (domain, code, original_url, normalized_url, link_type, status, created_at, updated_at)
      values ('${DEFAULT_DOMAIN}', 'snap-new', 'https://example.com/snap', 'https://example.com/snap', 'PERMANENT', 'ACTIVE', 1, 1)`;
    const seen = await new Promise<unknown>((resolve, reject) => {
      setTimeout(() => {
        // A lookup opens this turn's shared read snapshot, before the write below commits.
        assert.equal(store.findRedirectTarget(DEFAULT_DOMAIN, 'snap-new'), undefined);
        const written = writer.write({ sql: insert, parameters: [] });
        // Block until the writer has committed and answered, so that its answer is handled in this
        // same loop iteration, before the snapshot would end on its own.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
        written.then(() => resolve(store.findRedirectTarget(DEFAULT_DOMAIN, 'snap-new')), reject);
      }, 0);
    });
    assert.equal((seen as { url?: string } | undefined)?.url, 'https://example.com/snap');
  });

  test('the main thread\'s connection refuses writes: a write that reached it would be a bug', () => {
    assert.throws(() => t.deps.database.embedded!.reader.all("update links set code = code where code = 'x'", []), /not a read-only statement/);
  });
});
