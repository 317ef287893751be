import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LinkListFilter } from '../../src/core/ports.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { createOwner, insertedLink, LATE_TIME, type TestOwner } from '../support/contract-fixtures.js';

const NOW = LATE_TIME;

for (const backend of STORE_BACKENDS) {
  describe(`LinkStore listing on ${backend.name}`, () => {
    const stores = storesFor(backend);

    const ownedLink = (owner: TestOwner, fields: { code?: string; originalUrl?: string; expiresAt?: number | null } = {}) =>
      insertedLink(stores.links, { workspaceId: owner.workspaceId, ownerId: owner.userId, ...fields });
    const codes = async (filter: Partial<LinkListFilter> & { workspaceIds: readonly number[] }) =>
      (await stores.links.listLinks({ limit: 100, now: NOW, ...filter })).map((link) => link.code);

    test('lists only the given workspaces, newest first, up to the limit and before the cursor', async () => {
      const [a, b, other] = [await createOwner(stores.accounts), await createOwner(stores.accounts), await createOwner(stores.accounts)];
      const first = await ownedLink(a);
      const second = await ownedLink(b);
      const third = await ownedLink(a);
      await ownedLink(other);
      assert.deepEqual(await codes({ workspaceIds: [a.workspaceId, b.workspaceId] }), [third.code, second.code, first.code]);
      assert.deepEqual(await codes({ workspaceIds: [a.workspaceId, b.workspaceId], limit: 2 }), [third.code, second.code]);
      assert.deepEqual(await codes({ workspaceIds: [a.workspaceId, b.workspaceId], beforeId: second.id }), [first.code]);
      assert.deepEqual(await codes({ workspaceIds: [] }), []);
    });

    test('filters by effective status: a link past its expiry counts as EXPIRED whatever its column says', async () => {
      const owner = await createOwner(stores.accounts);
      const live = await ownedLink(owner, { expiresAt: NOW + 1 });
      const forever = await ownedLink(owner, { expiresAt: null });
      const lapsed = await ownedLink(owner, { expiresAt: NOW });
      const marked = await ownedLink(owner, { expiresAt: NOW - 10 });
      await stores.database.db.updateTable('links').set({ status: 'EXPIRED' }).where('id', '=', marked.id).execute();
      const deleted = await ownedLink(owner, { expiresAt: NOW - 10 });
      await stores.links.markLinkDeleted(deleted.id, NOW);
      const workspaceIds = [owner.workspaceId];
      assert.deepEqual(await codes({ workspaceIds, status: 'ACTIVE' }), [forever.code, live.code]);
      assert.deepEqual(await codes({ workspaceIds, status: 'EXPIRED' }), [marked.code, lapsed.code]);
      assert.deepEqual(await codes({ workspaceIds, status: 'DELETED' }), [deleted.code]);
      assert.deepEqual(await codes({ workspaceIds }), [deleted.code, marked.code, lapsed.code, forever.code, live.code]);
    });

    test('search is a case-insensitive substring of the code or the original URL', async () => {
      const owner = await createOwner(stores.accounts);
      const byCode = await ownedLink(owner, { code: `PromoCode${owner.userId}` });
      const byUrl = await ownedLink(owner, { originalUrl: `https://Example.com/SUMMER-sale/${owner.userId}` });
      await ownedLink(owner);
      const workspaceIds = [owner.workspaceId];
      assert.deepEqual(await codes({ workspaceIds, search: 'promocode' }), [byCode.code]);
      assert.deepEqual(await codes({ workspaceIds, search: 'summer-SALE' }), [byUrl.code]);
    });

    test('%, _ and ! in a search match themselves only', async () => {
      const owner = await createOwner(stores.accounts);
      const percent = await ownedLink(owner, { originalUrl: `https://example.com/100%25off/${owner.userId}` });
      const underscore = await ownedLink(owner, { originalUrl: `https://example.com/a_b/${owner.userId}` });
      const bang = await ownedLink(owner, { originalUrl: `https://example.com/wow!/${owner.userId}` });
      await ownedLink(owner, { originalUrl: `https://example.com/axb/${owner.userId}` });
      await ownedLink(owner, { originalUrl: `https://example.com/wow/${owner.userId}` });
      const workspaceIds = [owner.workspaceId];
      assert.deepEqual(await codes({ workspaceIds, search: '%25' }), [percent.code]);
      assert.deepEqual(await codes({ workspaceIds, search: 'a_b' }), [underscore.code]);
      assert.deepEqual(await codes({ workspaceIds, search: 'wow!' }), [bang.code]);
      assert.deepEqual(await codes({ workspaceIds, search: '%' }), [percent.code]);
      assert.deepEqual(await codes({ workspaceIds, search: '_' }), [underscore.code]);
    });
  });
}
