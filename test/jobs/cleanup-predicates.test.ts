import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Selectable } from 'kysely';
import type { LinkStatus } from '../../src/core/link.js';
import { KyselyCleanupStore } from '../../src/storage/cleanup-store.js';
import type { LinkRow } from '../../src/storage/schema.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { DAY, HOUR, linkInState, linkRow, ownerUser } from '../support/cleanup-fixtures.js';
import { suiteScope } from '../support/teardown.js';

/**
 * ADR 0005: the purge must be correct without the lock. These tests call the store's
 * batches directly (no lock, no reaper) and check the WHERE clauses alone.
 */
describe('the purge and mark predicates, without the lock', () => {
  let t: TestApp;
  let store: KyselyCleanupStore;
  let ownerId: number;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, );
    store = new KyselyCleanupStore(t.deps.database.db, t.deps.database.dialect);
    ownerId = await ownerUser(t.deps);
  });
  after(() => t.close());

  const clear = () => t.deps.database.db.deleteFrom('links').execute();

  test('the purge never selects an ACTIVE link, an owned live link, or one whose expiry is in the future', async () => {
    await clear();
    const now = t.clock.now();
    const survivors = [
      await linkInState(t.deps, { status: 'ACTIVE', expiresAt: now - 30 * DAY }), // expired long ago, not marked yet
      await linkInState(t.deps, { status: 'ACTIVE', expiresAt: null, ownerId }),
      await linkInState(t.deps, { status: 'ACTIVE', expiresAt: now + HOUR }),
      await linkInState(t.deps, { status: 'ACTIVE', expiresAt: now - 30 * DAY, deletedAt: now - 30 * DAY, ownerId }), // restored, odd columns
      await linkInState(t.deps, { status: 'EXPIRED', expiresAt: now + HOUR }), // renewed after marking
      await linkInState(t.deps, { status: 'DELETED', expiresAt: now + DAY, deletedAt: now - 30 * DAY, ownerId }),
      await linkInState(t.deps, { status: 'EXPIRED', expiresAt: null }),
      await linkInState(t.deps, { status: 'DELETED', expiresAt: null, deletedAt: null }),
    ];
    const doomed = [
      await linkInState(t.deps, { status: 'EXPIRED', expiresAt: now - 30 * DAY }),
      await linkInState(t.deps, { status: 'DELETED', expiresAt: null, deletedAt: now - 30 * DAY, ownerId }),
      await linkInState(t.deps, { status: 'DELETED', expiresAt: now - 20 * DAY, deletedAt: now - 30 * DAY }),
    ];

    const result = await store.purgeBatch({ cutoff: now - DAY, limit: 1000, archivedAt: undefined });

    assert.equal(result.purged, doomed.length);
    for (const link of survivors) assert.deepEqual(await linkRow(t.deps, link.id), link);
  });

  test('even a cutoff in the future purges nothing that is live', async () => {
    await clear();
    const now = t.clock.now();
    const live = [
      await linkInState(t.deps, { status: 'ACTIVE', expiresAt: now + HOUR }),
      await linkInState(t.deps, { status: 'ACTIVE', expiresAt: null, ownerId }),
      await linkInState(t.deps, { status: 'ACTIVE', expiresAt: now - HOUR }),
    ];
    const result = await store.purgeBatch({ cutoff: now + 365 * DAY, limit: 1000, archivedAt: now });
    assert.equal(result.purged, 0);
    for (const link of live) assert.deepEqual(await linkRow(t.deps, link.id), link);
  });

  const statusArb = fc.constantFrom<LinkStatus>('ACTIVE', 'EXPIRED', 'DELETED');
  const offsetArb = fc.option(fc.integer({ min: -3 * 24, max: 3 * 24 }).map((hours) => hours * HOUR), { nil: null });
  const linkArb = fc.record({ status: statusArb, expires: offsetArb, deleted: offsetArb, owned: fc.boolean() });

  /** Stores one link per generated spec, times relative to `now`. */
  async function storeAll(specs: Array<typeof linkArb extends fc.Arbitrary<infer T> ? T : never>, now: number): Promise<Selectable<LinkRow>[]> {
    const rows: Selectable<LinkRow>[] = [];
    for (const spec of specs) {
      rows.push(await linkInState(t.deps, {
        status: spec.status,
        expiresAt: spec.expires === null ? null : now + spec.expires,
        deletedAt: spec.deleted === null ? null : now + spec.deleted,
        ownerId: spec.owned ? ownerId : null,
      }));
    }
    return rows;
  }

  test('property: the purge deletes exactly the rows its rule names, and nothing live', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(linkArb, { minLength: 1, maxLength: 12 }),
      fc.integer({ min: 0, max: 3 * 24 }).map((hours) => hours * HOUR),
      async (specs, age) => {
        await clear();
        const now = t.clock.now();
        const cutoff = now - age;
        const rows = await storeAll(specs, now);
        await store.purgeBatch({ cutoff, limit: 1000, archivedAt: now });
        const left = new Set((await t.deps.database.db.selectFrom('links').select('id').execute()).map((r) => Number(r.id)));
        for (const row of rows) {
          const expiredLongAgo = row.expires_at !== null && row.expires_at < cutoff;
          const purgeable = (row.status === 'EXPIRED' && expiredLongAgo)
            || (row.status === 'DELETED' && row.deleted_at !== null && row.deleted_at < cutoff && (row.expires_at === null || expiredLongAgo));
          assert.equal(!left.has(Number(row.id)), purgeable, `row ${JSON.stringify(row)} with cutoff ${cutoff}`);
          if (row.status === 'ACTIVE' || (row.expires_at !== null && row.expires_at >= now)) assert.ok(left.has(Number(row.id)));
        }
      },
    ), { numRuns: 40 });
  });

  test('property: marking touches exactly the ACTIVE links whose expiry has passed', async () => {
    await fc.assert(fc.asyncProperty(fc.array(linkArb, { minLength: 1, maxLength: 12 }), async (specs) => {
      await clear();
      const now = t.clock.now();
      const rows = await storeAll(specs, now);
      const { links } = await store.markExpiredBatch({ now, limit: 1000, after: undefined });
      const codes = links.map((link) => link.code);
      const expected = rows.filter((r) => r.status === 'ACTIVE' && r.expires_at !== null && r.expires_at < now);
      assert.deepEqual([...codes].sort(), expected.map((r) => r.code).sort());
      for (const row of rows) {
        const status = expected.includes(row) ? 'EXPIRED' : row.status;
        assert.equal((await linkRow(t.deps, row.id)).status, status);
      }
    }), { numRuns: 40 });
  });

  test('the mark cursor resumes after the last marked link, in (expires_at, id) order', async () => {
    await clear();
    const now = t.clock.now();
    const sameInstant = now - HOUR;
    const links = [];
    for (let i = 0; i < 5; i++) links.push(await linkInState(t.deps, { expiresAt: sameInstant }));
    const first = await store.markExpiredBatch({ now, limit: 2, after: undefined });
    const second = await store.markExpiredBatch({ now, limit: 2, after: first.cursor });
    const third = await store.markExpiredBatch({ now, limit: 2, after: second.cursor });
    assert.deepEqual(first.cursor, { expiresAt: sameInstant, id: links[1]!.id });
    // Within a batch the order is the database's (PostgreSQL's RETURNING keeps none); across batches it is the cursor's.
    const order = (batch: typeof first.links) => batch.map((link) => link.code).sort((a, b) => codes.indexOf(a) - codes.indexOf(b));
    const codes = links.map((l) => l.code);
    assert.deepEqual([...order(first.links), ...order(second.links), ...order(third.links)], codes);
    // A link the cursor has passed would wait for the next run, which starts without a cursor.
    assert.equal((await store.markExpiredBatch({ now, limit: 2, after: third.cursor })).links.length, 0);
  });
});
