import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { createOwner, insertedLink, LATE_TIME, type TestOwner } from '../support/contract-fixtures.js';

const NOW = LATE_TIME;
const DAY = 86_400_000;

for (const backend of STORE_BACKENDS) {
  describe(`LinkStore sorting, counting and bulk changes on ${backend.name}`, () => {
    const stores = storesFor(backend);
    const ownedLink = (owner: TestOwner, originalUrl?: string) =>
      insertedLink(stores.links, { workspaceId: owner.workspaceId, ownerId: owner.userId, ...(originalUrl && { originalUrl }) });

    test('counts what the filter matches, and sorts by people\'s clicks or last click with the id breaking ties, from an offset', async () => {
      const owner = await createOwner(stores.accounts);
      const [a, b, c] = [await ownedLink(owner), await ownedLink(owner), await ownedLink(owner)];
      const db = stores.database.db;
      await db.updateTable('links').set({ human_count: 5 }).where('id', '=', a.id).execute();
      const hour = Math.floor(NOW / 3_600_000) * 3_600_000;
      await db.insertInto('link_clicks_hourly').values([
        { link_id: b.id, hour_start: hour, visitor_class: 'human', clicks: 1 },
        { link_id: a.id, hour_start: hour - DAY, visitor_class: 'human', clicks: 5 },
        { link_id: c.id, hour_start: hour, visitor_class: 'bot', clicks: 3 },
      ]).execute();
      const filter = { workspaceIds: [owner.workspaceId], now: NOW };
      const ids = async (extra: object) => (await stores.links.listLinks({ ...filter, limit: 10, ...extra })).map((link) => link.id);
      assert.equal(await stores.links.countLinks(filter), 3);
      assert.equal(await stores.links.countLinks({ ...filter, linkIds: [a.id, c.id] }), 2);
      assert.deepEqual(await ids({ sort: 'clicks' }), [a.id, c.id, b.id]);
      assert.deepEqual(await ids({ sort: 'lastClick' }), [b.id, a.id, c.id]);
      assert.deepEqual(await ids({ sort: 'lastClick', ascending: true }), [c.id, a.id, b.id]);
      assert.deepEqual(await ids({ offset: 1, limit: 1 }), [b.id]);
      const [listed] = await stores.links.listLinks({ ...filter, linkIds: [b.id], limit: 1 });
      assert.equal(listed?.lastClickAt, hour);
      const days = await stores.links.listDailyClicks([a.id, b.id, c.id], hour - 2 * DAY, hour + DAY);
      assert.deepEqual(days.map((d) => [d.linkId, d.day, d.clicks]).sort((x, y) => x[0]! - y[0]!), [
        [a.id, Math.floor((hour - DAY) / DAY) * DAY, 5],
        [b.id, Math.floor(hour / DAY) * DAY, 1],
      ]);
    });

    test('deletes and restores many links in one statement, answering only the rows it changed', async () => {
      const owner = await createOwner(stores.accounts);
      const [a, b] = [await ownedLink(owner), await ownedLink(owner)];
      await stores.links.markLinkDeleted(a.id, NOW);
      const deleted = await stores.links.markLinksDeleted([a.id, b.id], NOW + 1);
      assert.deepEqual(deleted.map((link) => [link.id, link.status, link.deletedAt]), [[b.id, 'DELETED', NOW + 1]]);
      const restored = await stores.links.restoreDeletedLinks([a.id, b.id], NOW + 2);
      assert.deepEqual(restored.map((link) => link.id).sort((x, y) => x - y), [a.id, b.id]);
      assert.deepEqual(await stores.links.markLinksDeleted([], NOW), []);
    });

    test('moves links to another workspace, all or none: a URL the target holds already moves nothing', async () => {
      const [from, to] = [await createOwner(stores.accounts), await createOwner(stores.accounts)];
      const [a, b] = [await ownedLink(from, `https://example.com/move/${from.userId}/a`), await ownedLink(from, `https://example.com/move/${from.userId}/b`)];
      await ownedLink(to, `https://example.com/move/${from.userId}/b`);
      const refused = await stores.links.moveLinks([a.id, b.id], to.workspaceId, NOW);
      assert.deepEqual(refused, { ok: false, conflict: 'normalized_url' });
      assert.equal((await stores.links.findLinkById(a.id))?.workspaceId, from.workspaceId, 'nothing moved');
      assert.deepEqual(await stores.links.moveLinks([a.id], to.workspaceId, NOW), { ok: true, moved: 1 });
      assert.equal((await stores.links.findLinkById(a.id))?.workspaceId, to.workspaceId);
    });
  });
}
