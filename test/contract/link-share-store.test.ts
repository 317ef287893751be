import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KyselyLinkShareStore } from '../../src/storage/link-share-store.js';
import { KyselyVisitExportStore } from '../../src/storage/visit-export-store.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { insertedLink, LATE_TIME } from '../support/contract-fixtures.js';
import { insertVisitsWithFacts } from '../support/visit-rows.js';

const facts = { visitorClass: 'human' as const, referrerHost: 'news.example', browser: 'Firefox', os: 'Linux', device: 'desktop', country: 'DE' };

for (const backend of STORE_BACKENDS) {
  describe(`LinkShareStore and VisitExportStore on ${backend.name}`, () => {
    const stores = storesFor(backend);
    const shares = () => new KyselyLinkShareStore(stores.database.db);
    const exports = () => new KyselyVisitExportStore(stores.database.db);

    test('a new share replaces the active one; only the active one is found by its hash; revoking twice is harmless', async () => {
      const link = await insertedLink(stores.links);
      const first = await shares().replaceShare({ linkId: link.id, tokenHash: 'a'.repeat(64), createdBy: 7, now: LATE_TIME });
      assert.deepEqual(first, { id: first.id, linkId: link.id, createdBy: 7, createdAt: LATE_TIME });
      const second = await shares().replaceShare({ linkId: link.id, tokenHash: 'b'.repeat(64), createdBy: 7, now: LATE_TIME + 1 });
      assert.equal(await shares().findSharedLinkId('a'.repeat(64)), undefined);
      assert.equal(await shares().findSharedLinkId('b'.repeat(64)), link.id);
      assert.deepEqual(await shares().findActiveShare(link.id), second);
      assert.equal(await shares().revokeShare(link.id, LATE_TIME + 2), true);
      assert.equal(await shares().revokeShare(link.id, LATE_TIME + 3), false);
      assert.equal(await shares().findActiveShare(link.id), undefined);
      assert.equal(await shares().findSharedLinkId('b'.repeat(64)), undefined);
    });

    test('the database keeps one active share per link', async () => {
      const link = await insertedLink(stores.links);
      const row = (hash: string) => ({ link_id: link.id, token_hash: hash, created_by: null, created_at: LATE_TIME });
      await stores.database.db.insertInto('link_shares').values(row('c'.repeat(64))).execute();
      await assert.rejects(stores.database.db.insertInto('link_shares').values(row('d'.repeat(64))).execute());
    });

    test('visits are read by id within a range, a time window and one link, oldest id first, at most limit', async () => {
      const link = await insertedLink(stores.links);
      const other = await insertedLink(stores.links);
      await insertVisitsWithFacts(stores.database.db, link.id, [0, 1, 2, 3].map((i) => ({ at: LATE_TIME + i * 1000, facts })));
      await insertVisitsWithFacts(stores.database.db, other.id, [{ at: LATE_TIME, facts }]);
      const [range] = await exports().listVisitRanges(link.id, 0, 10);
      assert.equal(range!.lastId - range!.firstId, 3);
      const query = { linkId: link.id, fromId: range!.firstId, toId: range!.lastId, from: LATE_TIME + 1000, to: LATE_TIME + 3000, limit: 10 };
      const visits = await exports().listVisits(query);
      assert.deepEqual(visits.map((visit) => visit.visitedAt), [LATE_TIME + 1000, LATE_TIME + 2000]);
      assert.deepEqual(visits[0], { id: range!.firstId + 1, visitedAt: LATE_TIME + 1000, visitorClass: 'human', country: 'DE', city: null, referrerHost: 'news.example', browser: 'Firefox', os: 'Linux', device: 'desktop', destination: null });
      assert.equal((await exports().listVisits({ ...query, limit: 1 })).length, 1);
      assert.deepEqual(await exports().listVisitRanges(link.id, range!.firstId, 10), []);
    });
  });
}
