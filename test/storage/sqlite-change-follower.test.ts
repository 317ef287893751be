import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { MemoryLinkCache } from '../../src/cache/memory-link-cache.js';
import type { RedirectTarget } from '../../src/core/link.js';
import { systemClock } from '../../src/core/ports.js';
import { openSqlite } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrations/index.js';
import { LINK_CHANGES_KEPT } from '../../src/storage/migrations/012-link-changes.js';
import { SqliteChangeFollower } from '../../src/storage/sqlite-change-follower.js';
import { onTeardown, type TeardownScope } from '../support/teardown.js';

const target = (url: string, linkId: number, status: RedirectTarget['status'] = 'ACTIVE'): RedirectTarget => ({ url, expiresAt: null, status, linkId, permanent: true });

/**
 * A migrated file, this process's cache and its follower, and a connection of "another process"
 * that writes the file directly.
 */
async function sharedFile(scope: TeardownScope) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-follow-'));
  const file = path.join(dir, 'linkforge.db');
  const database = openSqlite(file);
  onTeardown(scope, async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await migrateToLatest(database.db, 'sqlite');
  const other = new SQLite(file);
  onTeardown(scope, () => other.close());
  const cache = new MemoryLinkCache({ maxEntries: 100, maxBytes: 1024 * 1024, linkTtlMs: 86_400_000, tombstoneTtlMs: 86_400_000, negativeTtlMs: 86_400_000, clock: systemClock });
  const follower = new SqliteChangeFollower(file, cache);
  onTeardown(scope, () => follower.close());
  const insert = other.prepare(`insert into links (domain, code, original_url, normalized_url, link_type, status, created_at, updated_at)
    values ('', ?, 'https://example.com/', 'https://example.com/', 'PERMANENT', 'ACTIVE', 0, 0)`);
  const insertLink = (code: string) => Number(insert.run(code).lastInsertRowid);
  const remember = (code: string, value: RedirectTarget | undefined) => cache.remember('', code, value, Date.now());
  const logged = () => (other.prepare('select count(*) as n from link_changes').get() as { n: number }).n;
  return { other, cache, follower, insertLink, remember, logged };
}

describe('the change log each process follows on a shared SQLite file', () => {
  test('a link another connection changes, renames or deletes leaves the cache', async (t) => {
    const { other, cache, follower, insertLink, remember } = await sharedFile(t);
    const edited = insertLink('edited');
    const renamed = insertLink('renamed');
    const deleted = insertLink('deleted');
    for (const [code, id] of [['edited', edited], ['renamed', renamed], ['deleted', deleted]] as const) remember(code, target('https://example.com/', id));
    other.prepare(`update links set original_url = 'https://example.com/two' where code = 'edited'`).run();
    other.prepare(`update links set code = 'moved' where code = 'renamed'`).run();
    other.prepare(`delete from links where code = 'deleted'`).run();
    follower.catchUp();
    for (const code of ['edited', 'renamed', 'deleted']) assert.equal(cache.get('', code), undefined, code);
  });

  test('a link another process disables or enables (its operator\'s reason) leaves the cache, and a cached disable stays while true', async (t) => {
    const { other, cache, follower, insertLink, remember } = await sharedFile(t);
    const id = insertLink('abused');
    remember('abused', target('https://example.com/', id));
    other.prepare(`update links set disabled_reason = 'phishing', disabled_at = 1 where code = 'abused'`).run();
    follower.catchUp();
    assert.equal(cache.get('', 'abused'), undefined, 'disabling dropped the live entry');
    const disabled: RedirectTarget = { ...target('https://example.com/', id), status: 'DISABLED', disabledReason: 'phishing' };
    remember('abused', disabled);
    other.prepare(`update links set disabled_reason = 'malware' where code = 'abused'`).run();
    follower.catchUp();
    assert.equal(cache.get('', 'abused'), undefined, 'a new reason dropped the old one');
    remember('abused', { ...disabled, disabledReason: 'malware' });
    other.prepare(`update links set destination_status = 200 where code = 'abused'`).run();
    other.prepare(`update links set original_url = original_url where code = 'abused'`).run();
    follower.catchUp();
    assert.equal(cache.get('', 'abused')?.status, 'DISABLED', 'an entry that still says what the row says stays');
    other.prepare(`update links set disabled_reason = null, disabled_at = null where code = 'abused'`).run();
    follower.catchUp();
    assert.equal(cache.get('', 'abused'), undefined, 'enabling dropped the disabled entry');
  });

  test('a code the cache knows as unknown is forgotten once another connection creates it', async (t) => {
    const { cache, follower, insertLink, remember } = await sharedFile(t);
    remember('fresh', undefined);
    assert.equal(cache.get('', 'fresh'), null);
    insertLink('fresh');
    follower.catchUp();
    assert.equal(cache.get('', 'fresh'), undefined);
  });

  test('entries that still say what the row says stay: this process\'s own changes, and a purged link\'s tombstone', async (t) => {
    const { other, cache, follower, insertLink, remember } = await sharedFile(t);
    const id = insertLink('current');
    remember('current', target('https://example.com/', id));
    const purged = insertLink('purged');
    remember('purged', target('https://example.com/', purged, 'DELETED'));
    other.prepare(`delete from links where code = 'purged'`).run();
    const generation = cache.generation;
    follower.catchUp();
    assert.deepEqual(cache.get('', 'current'), target('https://example.com/', id));
    assert.equal(cache.get('', 'purged')?.status, 'DELETED');
    assert.equal(cache.generation, generation, 'nothing was invalidated');
  });

  test('a change no redirect reads (a health check result) is not logged', async (t) => {
    const { other, insertLink, logged } = await sharedFile(t);
    insertLink('checked');
    other.prepare(`update links set destination_status = 'ok', last_checked_at = 1 where code = 'checked'`).run();
    assert.equal(logged(), 1);
  });

  test('a follower further behind than it reads at once clears the cache, then follows from the newest change', async (t) => {
    const { other, cache, follower, insertLink, remember } = await sharedFile(t);
    remember('unrelated', target('https://example.com/', 999_999));
    other.transaction(() => { for (let i = 0; i < 5_001; i++) insertLink(`bulk${i}`); })();
    follower.catchUp();
    assert.equal(cache.get('', 'unrelated'), undefined);
    remember('after', undefined);
    insertLink('after');
    follower.catchUp();
    assert.equal(cache.get('', 'after'), undefined);
  });

  test('changes trimmed from the log before the follower read them clear the cache', async (t) => {
    const { other, cache, follower, remember } = await sharedFile(t);
    remember('unrelated', target('https://example.com/', 999_999));
    const add = other.prepare(`insert into link_changes (domain, code) values ('', 'x')`);
    other.transaction(() => { for (let i = 0; i < LINK_CHANGES_KEPT + 1_000; i++) add.run(); })();
    const { rows, oldest } = other.prepare('select count(*) as rows, min(id) as oldest from link_changes').get() as { rows: number; oldest: number };
    // Trimmed every thousandth row: the log never holds a thousand rows more than it keeps.
    assert.ok(rows <= LINK_CHANGES_KEPT + 1_000 && oldest > 1, `the log is trimmed (has ${rows} rows, the oldest ${oldest})`);
    follower.catchUp();
    assert.equal(cache.get('', 'unrelated'), undefined);
  });
});
