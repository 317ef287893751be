import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BatchEvent } from '../../src/jobs/reaper.js';
import { createTestApp } from '../support/test-app.js';
import {
  archiveRows, cachedStatus, DAY, expiredLinks, HOUR, linkIds, linkInState, linkRow, MINUTE, ownerUser, QUICK_REAPER, ran, runRows, statusOf,
} from '../support/reaper-fixtures.js';

describe('phase 1: mark', () => {
  test('ACTIVE links past their expiry become EXPIRED; nothing else changes', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER });
    const now = t.clock.now();
    const justExpired = await linkInState(t.deps, { expiresAt: now - 1 });
    const expiringNow = await linkInState(t.deps, { expiresAt: now });
    const expiresDuringWait = await linkInState(t.deps, { expiresAt: now + 1 });
    const live = await linkInState(t.deps, { expiresAt: now + HOUR });
    const permanent = await linkInState(t.deps, { expiresAt: null, ownerId: await ownerUser(t.deps) });
    const deleted = await linkInState(t.deps, { expiresAt: now - HOUR, status: 'DELETED', deletedAt: now - MINUTE });
    t.clock.advance(5 * MINUTE);
    const markedAt = t.clock.now();

    const run = ran(await t.deps.cleanup.reaper.run());

    assert.equal(run.status, 'succeeded');
    assert.equal(run.markedExpired, 3);
    assert.equal(run.purged, 0, 'within the retention nothing is purged');
    assert.equal(await statusOf(t.deps, justExpired.id), 'EXPIRED');
    assert.equal((await linkRow(t.deps, justExpired.id)).updated_at, markedAt);
    assert.equal(await statusOf(t.deps, expiringNow.id), 'EXPIRED');
    assert.equal(await statusOf(t.deps, expiresDuringWait.id), 'EXPIRED');
    assert.deepEqual(await linkRow(t.deps, live.id), live, 'a live link is not touched');
    assert.equal(await statusOf(t.deps, permanent.id), 'ACTIVE');
    assert.equal(await statusOf(t.deps, deleted.id), 'DELETED');
    assert.deepEqual(await linkRow(t.deps, permanent.id), permanent, 'an unmarked row is not even touched');
  });

  test('a link expiring at the very instant of the run is left for the next run (expires_at < now)', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER });
    const now = t.clock.now();
    const atNow = await linkInState(t.deps, { expiresAt: now });
    const before = await linkInState(t.deps, { expiresAt: now - 1 });
    ran(await t.deps.cleanup.reaper.run());
    assert.equal(await statusOf(t.deps, atNow.id), 'ACTIVE');
    assert.equal(await statusOf(t.deps, before.id), 'EXPIRED');
  });

  test('marking turns cached entries into tombstones; redirects stay read-only: 410, then 404 once purged and the tombstone is gone', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_RETENTION: '0', CLEANUP_BUFFER: '0', CACHE_TTL: '1d', CACHE_LOCAL_TTL: '1d', CACHE_TOMBSTONE_TTL: '80ms' });
    const link = await linkInState(t.deps, { expiresAt: t.clock.now() + HOUR });
    assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 302);
    t.clock.advance(2 * HOUR);
    t.statements.length = 0;
    assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 410, 'expiry is judged on read, before the reaper runs');
    assert.deepEqual(t.statements, [], 'answered from the cached entry');
    assert.equal(cachedStatus(t.deps, link.code), 'ACTIVE', 'the cache still holds the live entry');

    const run = ran(await t.deps.cleanup.reaper.run());
    assert.equal(run.markedExpired, 1);
    assert.equal(run.purged, 1);
    assert.equal(cachedStatus(t.deps, link.code), 'EXPIRED', 'the cached entry is now a tombstone');

    t.statements.length = 0;
    const gone = await t.app.inject({ url: `/${link.code}`, headers: { accept: 'application/json' } });
    assert.equal(gone.statusCode, 410, 'the tombstone answers after the purge');
    assert.match(gone.body, /expired/);
    assert.deepEqual(t.statements, [], 'a tombstone hit reads nothing and writes nothing');
    t.clock.advance(100);
    assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 404, 'once the tombstone is gone');
    const reads = t.statements.filter((s) => !/^(begin|commit)$/i.test(s)); // misses of one turn share a read transaction
    assert.ok(reads.length > 0 && reads.every((s) => /^\s*select/i.test(s)), `redirects only read: ${t.statements.join("; ")}`);
  });

  test('a cached live entry is left alone when its link is not marked', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER });
    const link = await linkInState(t.deps, { expiresAt: t.clock.now() + HOUR });
    assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 302);
    ran(await t.deps.cleanup.reaper.run());
    assert.equal(cachedStatus(t.deps, link.code), 'ACTIVE');
    assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 302);
  });
});

describe('phase 2: purge and its cutoff, now - max(CLEANUP_RETENTION, CLEANUP_BUFFER)', () => {
  test('with retention longer than the buffer, the cutoff is now - retention, exclusive', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_RETENTION: '7d', CLEANUP_BUFFER: '1h' });
    const cutoff = t.clock.now() - 7 * DAY;
    const expiredBefore = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: cutoff - 1 });
    const expiredAt = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: cutoff });
    const expiredAfter = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: cutoff + 1 });
    const deletedBefore = await linkInState(t.deps, { status: 'DELETED', expiresAt: null, deletedAt: cutoff - 1 });
    const deletedAt = await linkInState(t.deps, { status: 'DELETED', expiresAt: null, deletedAt: cutoff });
    const deletedAfter = await linkInState(t.deps, { status: 'DELETED', expiresAt: null, deletedAt: cutoff + 1 });

    const run = ran(await t.deps.cleanup.reaper.run());

    assert.equal(run.purged, 2);
    assert.deepEqual(await linkIds(t.deps), [expiredAt.id, expiredAfter.id, deletedAt.id, deletedAfter.id]);
    assert.deepEqual((await archiveRows(t.deps)).map((r) => Number(r.id)), [expiredBefore.id, deletedBefore.id]);
  });

  test('with a buffer longer than the retention, the buffer wins', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_RETENTION: '30m', CLEANUP_BUFFER: '2h' });
    const cutoff = t.clock.now() - 2 * HOUR;
    const old = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: cutoff - 1 });
    const insideBuffer = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: cutoff + 1 });
    const pastRetentionOnly = await linkInState(t.deps, { status: 'DELETED', expiresAt: null, deletedAt: t.clock.now() - HOUR });

    const run = ran(await t.deps.cleanup.reaper.run());

    assert.equal(run.purged, 1);
    assert.deepEqual(await linkIds(t.deps), [insideBuffer.id, pastRetentionOnly.id]);
    assert.equal(await statusOf(t.deps, old.id), undefined);
  });

  test('an ACTIVE link that expired before the cutoff is marked, then purged, in the same run', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_RETENTION: '1d', CLEANUP_BUFFER: '1h' });
    const [old] = await expiredLinks(t.deps, 1, 2 * DAY);
    const [recent] = await expiredLinks(t.deps, 1, HOUR);
    const run = ran(await t.deps.cleanup.reaper.run());
    assert.equal(run.markedExpired, 2);
    assert.equal(run.purged, 1);
    assert.equal(await statusOf(t.deps, old!), undefined);
    assert.equal(await statusOf(t.deps, recent!), 'EXPIRED');
  });

  test('owned and live links are never touched, however old', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_RETENTION: '0', CLEANUP_BUFFER: '0' });
    const now = t.clock.now();
    t.clock.set(now - 400 * DAY);
    const ownerId = await ownerUser(t.deps);
    const owned = await linkInState(t.deps, { expiresAt: null, ownerId });
    const ownedWithFutureExpiry = await linkInState(t.deps, { expiresAt: now + DAY, ownerId });
    const anonymousLive = await linkInState(t.deps, { expiresAt: now + MINUTE });
    t.clock.set(now);
    const before = await Promise.all([owned, ownedWithFutureExpiry, anonymousLive].map((l) => linkRow(t.deps, l.id)));
    await expiredLinks(t.deps, 3, DAY);

    const run = ran(await t.deps.cleanup.reaper.run());

    assert.equal(run.purged, 3);
    const after = await Promise.all([owned, ownedWithFutureExpiry, anonymousLive].map((l) => linkRow(t.deps, l.id)));
    assert.deepEqual(after, before);
  });
});

describe('the archive', () => {
  test('each purged row is copied with every column, plus archived_at = the run time', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_ARCHIVE: 'true', CLEANUP_RETENTION: '1d' });
    const link = await linkInState(t.deps, { status: 'DELETED', expiresAt: t.clock.now() - 3 * DAY, deletedAt: t.clock.now() - 2 * DAY });
    await t.deps.database.db.updateTable('links').set({
      redirect_count: 42, avg_redirect_ms: 1.25, destination_status: 200, last_checked_at: t.clock.now() - DAY,
      claim_token_hash: 'a'.repeat(64), workspace_id: null,
    }).where('id', '=', link.id).execute();
    const stored = await linkRow(t.deps, link.id);

    const run = ran(await t.deps.cleanup.reaper.run());

    assert.equal(run.archived, 1);
    const [archived, ...others] = await archiveRows(t.deps);
    assert.equal(others.length, 0);
    const { archived_at: archivedAt, ...copy } = archived!;
    assert.deepEqual(copy, stored);
    assert.equal(archivedAt, t.clock.now());
    assert.equal(await statusOf(t.deps, link.id), undefined);
  });

  test('with CLEANUP_ARCHIVE off, purged rows are deleted without a copy', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_ARCHIVE: 'false', CLEANUP_RETENTION: '1d' });
    await expiredLinks(t.deps, 4, 2 * DAY);
    const run = ran(await t.deps.cleanup.reaper.run());
    assert.equal(run.purged, 4);
    assert.equal(run.archived, 0);
    assert.deepEqual(await archiveRows(t.deps), []);
    assert.deepEqual(await linkIds(t.deps), []);
  });
});

describe('batches', () => {
  test('every phase works in batches of CLEANUP_BATCH_SIZE', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_BATCH_SIZE: '3', CLEANUP_RETENTION: '1d' });
    await expiredLinks(t.deps, 7, 2 * DAY);
    const events: string[] = [];
    t.deps.cleanup.reaper.hooks = {
      beforeCommit: ({ phase, batch, rows }) => { events.push(`${phase}${batch}:${rows}`); },
    };
    const run = ran(await t.deps.cleanup.reaper.run());

    assert.deepEqual(events, ['mark1:3', 'mark2:3', 'mark3:1', 'purge1:3', 'purge2:3', 'purge3:1', 'visits1:0', 'facts1:0', 'rollups1:0']);
    assert.equal(run.batches, 6);
    assert.equal(run.lastBatchSize, 1);
    assert.equal(run.markedExpired, 7);
    assert.equal(run.purged, 7);
  });

  test('a phase whose rows fill the last batch exactly ends with one empty batch, which is not counted', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_BATCH_SIZE: '3', CLEANUP_RETENTION: '1d' });
    await expiredLinks(t.deps, 6, HOUR);
    const events: string[] = [];
    t.deps.cleanup.reaper.hooks = { beforeBatch: ({ phase, batch }: BatchEvent) => { events.push(`${phase}${batch}`); } };
    const run = ran(await t.deps.cleanup.reaper.run());
    assert.deepEqual(events, ['mark1', 'mark2', 'mark3', 'purge1', 'visits1', 'facts1', 'rollups1']);
    assert.equal(run.batches, 2);
    assert.equal(run.lastBatchSize, 3);
    assert.equal((await runRows(t.deps))[0]!.batches, 2);
  });

  test('CLEANUP_BATCH_PAUSE separates batches', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_BATCH_SIZE: '1', CLEANUP_BATCH_PAUSE: '40ms', CLEANUP_RETENTION: '1d' });
    await expiredLinks(t.deps, 2, 2 * DAY);
    const started = performance.now();
    const run = ran(await t.deps.cleanup.reaper.run());
    const elapsed = performance.now() - started;
    // mark: 1, pause, 1, pause, empty; purge: 1, pause, 1, pause, empty.
    assert.equal(run.purged, 2);
    assert.ok(elapsed >= 4 * 40 - 5, `took ${elapsed} ms`);
  });

  test('CLEANUP_MAX_DURATION stops the run after the batch in progress, leaving the rest for the next run', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_BATCH_SIZE: '2', CLEANUP_MAX_DURATION: '10ms', CLEANUP_RETENTION: '1d' });
    await expiredLinks(t.deps, 6, 2 * DAY);
    t.deps.cleanup.reaper.hooks = { beforeBatch: () => t.clock.advance(6) };

    const first = ran(await t.deps.cleanup.reaper.run());
    assert.equal(first.status, 'succeeded');
    assert.equal(first.stoppedEarly, 'time_limit');
    assert.equal(first.markedExpired, 4);
    assert.equal(first.purged, 0, 'the purge waits for a run that finishes marking');

    t.deps.cleanup.reaper.hooks = {};
    const second = ran(await t.deps.cleanup.reaper.run());
    assert.equal(second.stoppedEarly, null);
    assert.equal(second.markedExpired, 2);
    assert.equal(second.purged, 6);
    assert.deepEqual(await linkIds(t.deps), []);
  });
  test('a time limit reached during the last mark batch skips the purge', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_BATCH_SIZE: '10', CLEANUP_MAX_DURATION: '10ms', CLEANUP_RETENTION: '1d' });
    await expiredLinks(t.deps, 3, 2 * DAY);
    t.deps.cleanup.reaper.hooks = { beforeBatch: () => t.clock.advance(20) };
    const run = ran(await t.deps.cleanup.reaper.run());
    assert.equal(run.stoppedEarly, 'time_limit');
    assert.equal(run.markedExpired, 3);
    assert.equal(run.purged, 0);
  });

  test('a run also stops at CLEANUP_LOCK_AT_MOST, when its lock would expire, even with a longer CLEANUP_MAX_DURATION', async (context) => {
    const t = await createTestApp(context, { ...QUICK_REAPER, CLEANUP_BATCH_SIZE: '1', CLEANUP_MAX_DURATION: '1h', CLEANUP_LOCK_AT_MOST: '10ms', CLEANUP_RETENTION: '1d' });
    await expiredLinks(t.deps, 3, 2 * DAY);
    t.deps.cleanup.reaper.hooks = { beforeBatch: () => t.clock.advance(6) };
    const run = ran(await t.deps.cleanup.reaper.run());
    assert.equal(run.stoppedEarly, 'time_limit');
    assert.equal(run.markedExpired, 2);
  });
});
