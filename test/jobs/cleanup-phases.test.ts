import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../support/test-app.js';
import {
  archiveRows, cachedStatus, DAY, expiredLinks, HOUR, linkIds, linkInState, linkRow, MINUTE, ownerUser, QUICK_CLEANUP, ran, statusOf,
} from '../support/cleanup-fixtures.js';

describe('phase 1: mark', () => {
  test('ACTIVE links past their expiry become EXPIRED; nothing else changes', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP });
    try {
      const now = t.clock.now();
      const justExpired = await linkInState(t.deps, { expiresAt: now - 1 });
      const expiringNow = await linkInState(t.deps, { expiresAt: now });
      const expiresDuringWait = await linkInState(t.deps, { expiresAt: now + 1 });
      const live = await linkInState(t.deps, { expiresAt: now + HOUR });
      const permanent = await linkInState(t.deps, { expiresAt: null, ownerId: await ownerUser(t.deps) });
      const deleted = await linkInState(t.deps, { expiresAt: now - HOUR, status: 'DELETED', deletedAt: now - MINUTE });
      t.clock.advance(5 * MINUTE);
      const markedAt = t.clock.now();

      const run = ran(await t.deps.cleanup.job.run());

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
    } finally {
      await t.close();
    }
  });

  test('a link expiring at the very instant of the run is left for the next run (expires_at < now)', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP });
    try {
      const now = t.clock.now();
      const atNow = await linkInState(t.deps, { expiresAt: now });
      const before = await linkInState(t.deps, { expiresAt: now - 1 });
      ran(await t.deps.cleanup.job.run());
      assert.equal(await statusOf(t.deps, atNow.id), 'ACTIVE');
      assert.equal(await statusOf(t.deps, before.id), 'EXPIRED');
    } finally {
      await t.close();
    }
  });

  test('marking turns cached entries into tombstones; redirects stay read-only: 410, then 404 once purged and the tombstone is gone', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_RETENTION: '0', CLEANUP_BUFFER: '0', CACHE_TTL: '1d', CACHE_LOCAL_TTL: '1d', CACHE_TOMBSTONE_TTL: '80ms' });
    try {
      const link = await linkInState(t.deps, { expiresAt: t.clock.now() + HOUR });
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 302);
      t.clock.advance(2 * HOUR);
      t.statements.length = 0;
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 410, 'expiry is judged on read, before the reaper runs');
      assert.deepEqual(t.statements, [], 'answered from the cached entry');
      assert.equal(cachedStatus(t.deps, link.code), 'ACTIVE', 'the cache still holds the live entry');

      const run = ran(await t.deps.cleanup.job.run());
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
    } finally {
      await t.close();
    }
  });

  test('a cached live entry is left alone when its link is not marked', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP });
    try {
      const link = await linkInState(t.deps, { expiresAt: t.clock.now() + HOUR });
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 302);
      ran(await t.deps.cleanup.job.run());
      assert.equal(cachedStatus(t.deps, link.code), 'ACTIVE');
      assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 302);
    } finally {
      await t.close();
    }
  });
});

describe('phase 2: purge and its cutoff, now - max(CLEANUP_RETENTION, CLEANUP_BUFFER)', () => {
  test('with retention longer than the buffer, the cutoff is now - retention, exclusive', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_RETENTION: '7d', CLEANUP_BUFFER: '1h' });
    try {
      const cutoff = t.clock.now() - 7 * DAY;
      const expiredBefore = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: cutoff - 1 });
      const expiredAt = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: cutoff });
      const expiredAfter = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: cutoff + 1 });
      const deletedBefore = await linkInState(t.deps, { status: 'DELETED', expiresAt: null, deletedAt: cutoff - 1 });
      const deletedAt = await linkInState(t.deps, { status: 'DELETED', expiresAt: null, deletedAt: cutoff });
      const deletedAfter = await linkInState(t.deps, { status: 'DELETED', expiresAt: null, deletedAt: cutoff + 1 });

      const run = ran(await t.deps.cleanup.job.run());

      assert.equal(run.purged, 2);
      assert.deepEqual(await linkIds(t.deps), [expiredAt.id, expiredAfter.id, deletedAt.id, deletedAfter.id]);
      assert.deepEqual((await archiveRows(t.deps)).map((r) => Number(r.id)), [expiredBefore.id, deletedBefore.id]);
    } finally {
      await t.close();
    }
  });

  test('with a buffer longer than the retention, the buffer wins', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_RETENTION: '30m', CLEANUP_BUFFER: '2h' });
    try {
      const cutoff = t.clock.now() - 2 * HOUR;
      const old = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: cutoff - 1 });
      const insideBuffer = await linkInState(t.deps, { status: 'EXPIRED', expiresAt: cutoff + 1 });
      const pastRetentionOnly = await linkInState(t.deps, { status: 'DELETED', expiresAt: null, deletedAt: t.clock.now() - HOUR });

      const run = ran(await t.deps.cleanup.job.run());

      assert.equal(run.purged, 1);
      assert.deepEqual(await linkIds(t.deps), [insideBuffer.id, pastRetentionOnly.id]);
      assert.equal(await statusOf(t.deps, old.id), undefined);
    } finally {
      await t.close();
    }
  });

  test('an ACTIVE link that expired before the cutoff is marked, then purged, in the same run', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_RETENTION: '1d', CLEANUP_BUFFER: '1h' });
    try {
      const [old] = await expiredLinks(t.deps, 1, 2 * DAY);
      const [recent] = await expiredLinks(t.deps, 1, HOUR);
      const run = ran(await t.deps.cleanup.job.run());
      assert.equal(run.markedExpired, 2);
      assert.equal(run.purged, 1);
      assert.equal(await statusOf(t.deps, old!), undefined);
      assert.equal(await statusOf(t.deps, recent!), 'EXPIRED');
    } finally {
      await t.close();
    }
  });

  test('owned and live links are never touched, however old', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_RETENTION: '0', CLEANUP_BUFFER: '0' });
    try {
      const now = t.clock.now();
      t.clock.set(now - 400 * DAY);
      const ownerId = await ownerUser(t.deps);
      const owned = await linkInState(t.deps, { expiresAt: null, ownerId });
      const ownedWithFutureExpiry = await linkInState(t.deps, { expiresAt: now + DAY, ownerId });
      const anonymousLive = await linkInState(t.deps, { expiresAt: now + MINUTE });
      t.clock.set(now);
      const before = await Promise.all([owned, ownedWithFutureExpiry, anonymousLive].map((l) => linkRow(t.deps, l.id)));
      await expiredLinks(t.deps, 3, DAY);

      const run = ran(await t.deps.cleanup.job.run());

      assert.equal(run.purged, 3);
      const after = await Promise.all([owned, ownedWithFutureExpiry, anonymousLive].map((l) => linkRow(t.deps, l.id)));
      assert.deepEqual(after, before);
    } finally {
      await t.close();
    }
  });
});

describe('the archive', () => {
  test('each purged row is copied with every column, plus archived_at = the run time', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_ARCHIVE: 'true', CLEANUP_RETENTION: '1d' });
    try {
      const link = await linkInState(t.deps, { status: 'DELETED', expiresAt: t.clock.now() - 3 * DAY, deletedAt: t.clock.now() - 2 * DAY });
      await t.deps.database.db.updateTable('links').set({
        redirect_count: 42, avg_redirect_ms: 1.25, destination_status: 200, last_checked_at: t.clock.now() - DAY,
        claim_token_hash: 'a'.repeat(64), workspace_id: null,
      }).where('id', '=', link.id).execute();
      const stored = await linkRow(t.deps, link.id);

      const run = ran(await t.deps.cleanup.job.run());

      assert.equal(run.archived, 1);
      const [archived, ...others] = await archiveRows(t.deps);
      assert.equal(others.length, 0);
      const { archived_at: archivedAt, ...copy } = archived!;
      assert.deepEqual(copy, stored);
      assert.equal(archivedAt, t.clock.now());
      assert.equal(await statusOf(t.deps, link.id), undefined);
    } finally {
      await t.close();
    }
  });

  test('with CLEANUP_ARCHIVE off, purged rows are deleted without a copy', async (context) => {
    const t = await createTestApp(context, { ...QUICK_CLEANUP, CLEANUP_ARCHIVE: 'false', CLEANUP_RETENTION: '1d' });
    try {
      await expiredLinks(t.deps, 4, 2 * DAY);
      const run = ran(await t.deps.cleanup.job.run());
      assert.equal(run.purged, 4);
      assert.equal(run.archived, 0);
      assert.deepEqual(await archiveRows(t.deps), []);
      assert.deepEqual(await linkIds(t.deps), []);
    } finally {
      await t.close();
    }
  });
});
