import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Link, LinkStatus } from '../../src/core/link.js';
import { linkRowToLink } from '../../src/storage/link-rows.js';
import { KyselyWebhookStore } from '../../src/storage/webhook-store.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor, type ContractStores } from '../support/contract-stores.js';
import { insertedLink, LATE_TIME } from '../support/contract-fixtures.js';

const NOW = LATE_TIME + 7 * 24 * 3_600_000; // later than the links were created, so updatedAt shows the batch
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface LinkState {
  readonly status?: LinkStatus;
  readonly expiresAt?: number | null;
  readonly deletedAt?: number | null;
}

/** A link forced into a state the public API may not create directly (the reaper's input). */
async function linkInState(stores: ContractStores, state: LinkState): Promise<Link> {
  const link = await insertedLink(stores.links, { linkType: 'TEMPORARY', expiresAt: state.expiresAt === undefined ? NOW + 8 * HOUR : state.expiresAt });
  await stores.database.db.updateTable('links')
    .set({ status: state.status ?? 'ACTIVE', deleted_at: state.deletedAt ?? null })
    .where('id', '=', link.id).execute();
  return (await stores.links.findLinkById(link.id))!;
}

/** `count` ACTIVE links that expired `ago` ms before NOW, each a millisecond earlier than the last. */
async function expiredLinks(stores: ContractStores, count: number, ago: number): Promise<Link[]> {
  const links: Link[] = [];
  for (let i = 0; i < count; i++) links.push(await linkInState(stores, { expiresAt: NOW - ago - i }));
  return links;
}

async function archivedLinks(stores: ContractStores): Promise<Array<{ link: Link; archivedAt: number }>> {
  const rows = await stores.database.db.selectFrom('links_archive').selectAll().orderBy('id').execute();
  return rows.map(({ archived_at, ...row }) => ({ link: linkRowToLink(row), archivedAt: Number(archived_at) }));
}

const ids = (links: readonly Link[]) => links.map((link) => link.id).sort((a, b) => a - b);

for (const backend of STORE_BACKENDS) {
  describe(`CleanupStore on ${backend.name}`, () => {
    const stores = storesFor(backend);
    const remainingIds = async () => ids((await stores.database.db.selectFrom('links').selectAll().execute()).map(linkRowToLink));
    const statusOf = async (link: Link) => (await stores.links.findLinkById(link.id))?.status;
    // The batches work on the whole table: each test starts from an empty one.
    beforeEach(async () => {
      await stores.database.db.deleteFrom('links').execute();
      await stores.database.db.deleteFrom('links_archive').execute();
    });

    test('a mark batch marks at most `limit` links, returns their codes and a cursor, and the next batch goes on from it', async () => {
      const links = await expiredLinks(stores, 3, HOUR);
      const first = await stores.cleanup.markExpiredBatch({ now: NOW, limit: 2, after: undefined });
      // Oldest expiry first: the last two links inserted.
      assert.deepEqual(first.links.map((l) => l.code).sort(), [links[1]!.code, links[2]!.code].sort());
      assert.deepEqual(first.cursor, { expiresAt: links[1]!.expiresAt, id: links[1]!.id });
      const second = await stores.cleanup.markExpiredBatch({ now: NOW, limit: 2, after: first.cursor });
      assert.deepEqual(second.links, [{ domain: links[0]!.domain, code: links[0]!.code }]);
      assert.deepEqual(second.cursor, { expiresAt: links[0]!.expiresAt, id: links[0]!.id });
      for (const link of links) assert.deepEqual(await stores.links.findLinkById(link.id), { ...link, status: 'EXPIRED', updatedAt: NOW });
      const empty = await stores.cleanup.markExpiredBatch({ now: NOW, limit: 2, after: second.cursor });
      assert.deepEqual(empty, { links: [], cursor: second.cursor });
      assert.deepEqual(await stores.cleanup.markExpiredBatch({ now: NOW, limit: 2, after: undefined }), { links: [], cursor: undefined });
    });

    test('the cursor orders by (expires_at, id): links sharing an expiry are each marked once', async () => {
      const links = await Promise.all([1, 2, 3].map(() => linkInState(stores, { expiresAt: NOW - HOUR })));
      const first = await stores.cleanup.markExpiredBatch({ now: NOW, limit: 2, after: undefined });
      assert.deepEqual(first.cursor, { expiresAt: NOW - HOUR, id: ids(links)[1] });
      // A link that expired before the cursor's position is behind it: this walk does not go back for it.
      const behind = await linkInState(stores, { expiresAt: NOW - 2 * HOUR });
      const second = await stores.cleanup.markExpiredBatch({ now: NOW, limit: 2, after: first.cursor });
      assert.equal(second.links.length, 1);
      assert.deepEqual([...first.links, ...second.links].map((l) => l.code).sort(), links.map((l) => l.code).sort());
      assert.equal(await statusOf(behind), 'ACTIVE');
    });

    test('marking leaves live, unexpiring, DELETED and already EXPIRED links alone', async () => {
      const untouched = [
        await linkInState(stores, { expiresAt: NOW }),
        await linkInState(stores, { expiresAt: null }),
        await linkInState(stores, { status: 'DELETED', expiresAt: NOW - DAY, deletedAt: NOW - DAY }),
        await linkInState(stores, { status: 'EXPIRED', expiresAt: NOW - DAY }),
      ];
      assert.deepEqual(await stores.cleanup.markExpiredBatch({ now: NOW, limit: 10, after: undefined }), { links: [], cursor: undefined });
      for (const link of untouched) assert.deepEqual(await stores.links.findLinkById(link.id), link);
    });

    test('a purge batch copies then deletes at most `limit` links; without an archive time it only deletes', async () => {
      const links = await Promise.all([0, 1, 2].map((i) => linkInState(stores, { status: 'EXPIRED', expiresAt: NOW - 2 * DAY - i })));
      const archived = await stores.cleanup.purgeBatch({ cutoff: NOW - DAY, limit: 2, archivedAt: NOW + 7 });
      assert.deepEqual(archived, { purged: 2, archived: 2 });
      const copies = await archivedLinks(stores);
      assert.deepEqual(copies.map((c) => c.archivedAt), [NOW + 7, NOW + 7]);
      for (const copy of copies) assert.deepEqual(copy.link, links.find((l) => l.id === copy.link.id));
      const plain = await stores.cleanup.purgeBatch({ cutoff: NOW - DAY, limit: 2, archivedAt: undefined });
      assert.deepEqual(plain, { purged: 1, archived: 0 });
      assert.equal((await archivedLinks(stores)).length, 2);
      assert.deepEqual(await remainingIds(), []);
    });

    test('the purge never deletes an ACTIVE link, nor one expiring or deleted at or after the cutoff', async () => {
      const cutoff = NOW - DAY;
      const purgeable = [
        await linkInState(stores, { status: 'EXPIRED', expiresAt: cutoff - 1 }),
        await linkInState(stores, { status: 'DELETED', expiresAt: null, deletedAt: cutoff - 1 }),
        await linkInState(stores, { status: 'DELETED', expiresAt: cutoff - 1, deletedAt: cutoff - 1 }),
      ];
      const kept = [
        await linkInState(stores, { status: 'ACTIVE', expiresAt: cutoff - DAY }),
        await linkInState(stores, { status: 'EXPIRED', expiresAt: cutoff }),
        await linkInState(stores, { status: 'DELETED', expiresAt: null, deletedAt: cutoff }),
        await linkInState(stores, { status: 'DELETED', expiresAt: cutoff, deletedAt: cutoff - 1 }),
      ];
      assert.deepEqual(await stores.cleanup.purgeBatch({ cutoff, limit: 100, archivedAt: NOW }), { purged: 3, archived: 3 });
      assert.deepEqual(await remainingIds(), ids(kept));
      assert.deepEqual((await archivedLinks(stores)).map((c) => c.link.id), ids(purgeable));
      assert.deepEqual(await stores.cleanup.purgeBatch({ cutoff, limit: 100, archivedAt: NOW }), { purged: 0, archived: 0 });
    });

    test('mark batches that overlap (two reapers, no lock) mark each link exactly once', async () => {
      const links = await expiredLinks(stores, 40, HOUR);
      const batches = await Promise.all([1, 2, 3, 4].map(() => stores.cleanup.markExpiredBatch({ now: NOW, limit: 40, after: undefined })));
      const marked = batches.flatMap((batch) => batch.links.map((link) => link.code));
      assert.deepEqual(marked.sort(), links.map((link) => link.code).sort());
    });

    test('purge batches that overlap (two reapers, no lock) purge and archive each link exactly once', async () => {
      const links = await Promise.all(Array.from({ length: 40 }, (_, i) => linkInState(stores, { status: 'EXPIRED', expiresAt: NOW - 2 * DAY - i })));
      const batches = await Promise.all([1, 2, 3, 4].map(() => stores.cleanup.purgeBatch({ cutoff: NOW - DAY, limit: 40, archivedAt: NOW })));
      assert.equal(batches.reduce((sum, batch) => sum + batch.purged, 0), 40);
      assert.equal(batches.reduce((sum, batch) => sum + batch.archived, 0), 40);
      assert.deepEqual(await remainingIds(), []);
      assert.deepEqual((await archivedLinks(stores)).map((copy) => copy.link.id), ids(links));
    });

    test('a webhook deliveries batch deletes finished ones of events before the cutoff, the oldest first and no more than asked; pending ones stay', async () => {
      const workspaceId = Number((await stores.database.db.insertInto('workspaces')
        .values({ name: 'hooks', is_personal: 0, created_by: null, created_at: NOW }).returning('id').executeTakeFirstOrThrow()).id);
      const endpoint = (await new KyselyWebhookStore(stores.database.db).insertEndpoint({ workspaceId, url: 'http://127.0.0.1:9/', events: ['link.created'], secret: 'whsec_AAAA', createdAt: NOW })).id;
      const row = (occurredAt: number, status: 'pending' | 'delivered' | 'failed', linkId: number) => ({
        endpoint_id: endpoint, event_type: 'link.created', link_id: linkId, payload: '{}', occurred_at: occurredAt, status, attempts: 1, next_attempt_at: 0,
      });
      const cutoff = NOW - 30 * DAY;
      const rows = [row(cutoff - 3 * DAY, 'delivered', 1), row(cutoff - 2 * DAY, 'pending', 2), row(cutoff - 2 * DAY, 'failed', 3), row(cutoff - DAY, 'delivered', 4), row(cutoff, 'delivered', 5), row(NOW, 'failed', 6)];
      const made = (await stores.database.db.insertInto('webhook_deliveries').values(rows).returning('id').execute()).map((r) => Number(r.id));
      const left = async () => (await stores.database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint).orderBy('id').execute()).map((r) => Number(r.id));
      const deleteBatch = (limit: number) => stores.cleanup.deleteFinishedWebhookDeliveriesBatch({ before: cutoff, limit });
      assert.equal(await deleteBatch(2), 2);
      assert.deepEqual(await left(), [made[1], made[3], made[4], made[5]]);
      assert.equal(await deleteBatch(100), 1);
      assert.deepEqual(await left(), [made[1], made[4], made[5]], 'the pending row stays, and so do the rows from the cutoff on');
      assert.equal(await deleteBatch(100), 0);
    });

    test('a beforeCommit hook that throws rolls the whole batch back and its own error reaches the caller', async () => {
      const links = await expiredLinks(stores, 2, 2 * DAY);
      const failure = new Error('hook says no');
      let seenRows = -1;
      await assert.rejects(stores.cleanup.markExpiredBatch({ now: NOW, limit: 10, after: undefined, beforeCommit: async (rows) => { seenRows = rows; throw failure; } }),
        (error) => error === failure);
      assert.equal(seenRows, 2, 'the hook ran after the writes');
      for (const link of links) assert.equal(await statusOf(link), 'ACTIVE');

      await stores.cleanup.markExpiredBatch({ now: NOW, limit: 10, after: undefined });
      await assert.rejects(stores.cleanup.purgeBatch({ cutoff: NOW - DAY, limit: 10, archivedAt: NOW, beforeCommit: async () => { throw failure; } }),
        (error) => error === failure);
      assert.deepEqual(await remainingIds(), ids(links));
      assert.deepEqual(await archivedLinks(stores), []);
    });

    test('a database error inside a batch rolls it back, is reported, and the next batch works', async () => {
      const [link] = await expiredLinks(stores, 1, 2 * DAY);
      const other = await linkInState(stores, { status: 'EXPIRED', expiresAt: NOW - 2 * DAY });
      await stores.database.db.updateTable('links').set({ status: 'EXPIRED' }).execute();
      // An archive row with the same id makes the copy break the primary key.
      const row = await stores.database.db.selectFrom('links').selectAll().where('id', '=', link!.id).executeTakeFirstOrThrow();
      await stores.database.db.insertInto('links_archive').values({ ...row, archived_at: 1 }).execute();
      await assert.rejects(stores.cleanup.purgeBatch({ cutoff: NOW - DAY, limit: 10, archivedAt: NOW }), (error: Error) => {
        assert.match(`${(error as { code?: string }).code} ${error.message}`, /CONSTRAINT|UNIQUE|23505/i);
        return true;
      });
      assert.deepEqual(await remainingIds(), ids([link!, other]));
      await stores.database.db.deleteFrom('links_archive').execute();
      assert.deepEqual(await stores.cleanup.purgeBatch({ cutoff: NOW - DAY, limit: 10, archivedAt: NOW }), { purged: 2, archived: 2 });
    });
  });
}
