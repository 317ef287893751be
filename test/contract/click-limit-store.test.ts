import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KyselyClickLimitStore } from '../../src/storage/click-limit-store.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { insertedLink, LATE_TIME } from '../support/contract-fixtures.js';

for (const backend of STORE_BACKENDS) {
  describe(`ClickLimitStore on ${backend.name}`, () => {
    const stores = storesFor(backend);
    const clickLimits = () => new KyselyClickLimitStore(stores.database.db);

    test('each click takes one of the clicks left, down to none; then none is taken', async () => {
      const link = await insertedLink(stores.links, { maxClicks: 2 });
      assert.equal(await clickLimits().consumeClick(link.id), 1);
      assert.equal(await clickLimits().consumeClick(link.id), 0);
      assert.equal(await clickLimits().consumeClick(link.id), undefined);
      assert.equal((await stores.links.findLinkById(link.id))?.clicksLeft, 0);
    });

    test('a link without a limit, and a link that does not exist, give no click', async () => {
      const plain = await insertedLink(stores.links);
      assert.equal(await clickLimits().consumeClick(plain.id), undefined);
      assert.equal(await clickLimits().consumeClick(plain.id + 1_000_000), undefined);
      assert.equal((await stores.links.findLinkById(plain.id))?.clicksLeft, null);
    });

    test('of 100 simultaneous clicks on a link limited to 10, exactly 10 are taken', async () => {
      const link = await insertedLink(stores.links, { maxClicks: 10 });
      const store = clickLimits();
      const results = await Promise.all(Array.from({ length: 100 }, () => store.consumeClick(link.id)));
      const taken = results.filter((left) => left !== undefined);
      assert.equal(taken.length, 10);
      assert.deepEqual([...taken].sort((a, b) => a! - b!), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      assert.equal((await stores.links.findLinkById(link.id))?.clicksLeft, 0);
    });

    test('setting the limit again gives back all of its clicks', async () => {
      const link = await insertedLink(stores.links, { maxClicks: 1 });
      await clickLimits().consumeClick(link.id);
      await stores.links.updateLink(link.id, { maxClicks: 3, updatedAt: LATE_TIME + 1 });
      assert.equal(await clickLimits().consumeClick(link.id), 2);
    });
  });
}
