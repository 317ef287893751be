import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Link } from '../../src/core/link.js';
import type { TransactionStores } from '../../src/core/ports.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { createOwner, insertedLink, LATE_TIME, newLink } from '../support/contract-fixtures.js';

class WorkFailed extends Error {}

for (const backend of STORE_BACKENDS) {
  describe(`UnitOfWork on ${backend.name}`, () => {
    const stores = storesFor(backend);
    const find = (link: Link) => stores.links.findLinkById(link.id);
    // A rolled-back link is looked for by code: SQLite hands its id out again, PostgreSQL does not.
    const findByCode = (link: Link) => stores.links.findLinkByCode(link.domain, link.code);

    test('everything the work does through stores.links commits together, and run answers what the work returned', async () => {
      const existing = await insertedLink(stores.links);
      const answer = await stores.unitOfWork.run(async (trx) => {
        const first = await insertedLink(trx.links);
        const second = await insertedLink(trx.links);
        await trx.links.markLinkDeleted(existing.id, LATE_TIME + 1);
        return [first, second] as const;
      });
      assert.deepEqual(await find(answer[0]), answer[0]);
      assert.deepEqual(await find(answer[1]), answer[1]);
      assert.equal((await find(existing))?.status, 'DELETED');
    });

    test('a throw rolls back every write of the work, and the very error is rethrown', async () => {
      const existing = await insertedLink(stores.links);
      const failure = new WorkFailed('the work gave up');
      let inserted: Link | undefined;
      await assert.rejects(stores.unitOfWork.run(async (trx) => {
        inserted = await insertedLink(trx.links);
        await trx.links.updateLink(existing.id, { originalUrl: 'https://example.com/changed', normalizedUrl: 'https://example.com/changed', updatedAt: LATE_TIME + 1 });
        await trx.links.markLinkDeleted(existing.id, LATE_TIME + 2);
        throw failure;
      }), (error) => error === failure);
      assert.ok(inserted);
      assert.equal(await findByCode(inserted), undefined);
      assert.deepEqual(await find(existing), existing);
    });

    test('the work reads its own writes, which nobody outside sees before the commit', async () => {
      let seenOutside: Link | undefined | 'not looked';
      const link = await stores.unitOfWork.run(async (trx) => {
        const inserted = await insertedLink(trx.links);
        assert.deepEqual(await trx.links.findLinkByCode(inserted.domain, inserted.code), inserted);
        seenOutside = await stores.links.findLinkByCode(inserted.domain, inserted.code);
        return inserted;
      });
      assert.equal(seenOutside, undefined);
      assert.deepEqual(await find(link), link);
    });

    test('unique conflicts inside the work are values, and the work goes on and commits', async () => {
      const owner = await createOwner(stores.accounts);
      const taken = await insertedLink(stores.links, { workspaceId: owner.workspaceId, ownerId: owner.userId });
      const [link, moved] = await stores.unitOfWork.run(async (trx) => {
        assert.deepEqual(await trx.links.insertLink(newLink({ code: taken.code })), { ok: false, conflict: 'code' });
        const inserted = await insertedLink(trx.links, { workspaceId: owner.workspaceId, ownerId: owner.userId });
        const clash = { originalUrl: taken.originalUrl, normalizedUrl: taken.normalizedUrl, updatedAt: LATE_TIME + 1 };
        assert.deepEqual(await trx.links.updateLink(inserted.id, clash), { ok: false, conflict: 'normalized_url' });
        const update = await trx.links.updateLink(inserted.id, { expiresAt: LATE_TIME + 9, updatedAt: LATE_TIME + 2 });
        return [inserted, update?.ok ? update.link : undefined] as const;
      });
      assert.deepEqual(await find(link), moved);
      assert.equal(moved?.expiresAt, LATE_TIME + 9);
    });

    test('calls made at once inside one unit of work keep their own conflicts to themselves', async () => {
      const taken = await insertedLink(stores.links);
      const results = await stores.unitOfWork.run((trx) => Promise.all([
        trx.links.insertLink(newLink({ code: taken.code })),
        trx.links.insertLink(newLink()),
        trx.links.insertLink(newLink({ code: taken.code })),
        trx.links.insertLink(newLink()),
      ]));
      assert.deepEqual(results.map((r) => r.ok || r.conflict), ['code', true, 'code', true]);
      for (const result of results) if (result.ok) assert.deepEqual(await find(result.link), result.link);
    });

    test('two units of work running at once neither see nor undo each other\'s writes', async () => {
      const write = async (trx: TransactionStores, otherCode: () => string | undefined) => {
        const link = await insertedLink(trx.links);
        await nextTurn(); // gives the other unit a turn while this one is open
        const other = otherCode();
        const seen = other === undefined ? undefined : await trx.links.findLinkByCode(link.domain, other);
        await nextTurn();
        return { link, seen };
      };
      let failing: { link: Link; seen: Link | undefined } | undefined;
      let committed: { link: Link; seen: Link | undefined } | undefined;
      const [failed, succeeded] = await Promise.allSettled([
        stores.unitOfWork.run(async (trx) => {
          failing = await write(trx, () => committed?.link.code);
          throw new WorkFailed('rolled back');
        }),
        stores.unitOfWork.run(async (trx) => {
          committed = await write(trx, () => failing?.link.code);
          return committed;
        }),
      ]);
      assert.equal(failed.status, 'rejected');
      assert.equal(succeeded.status, 'fulfilled');
      assert.equal(committed!.seen, undefined, 'never saw the write of a unit that did not commit');
      assert.equal(await findByCode(failing!.link), undefined);
      assert.deepEqual(await find(committed!.link), committed!.link, 'the other unit\'s rollback left this write alone');
    });
  });
}
