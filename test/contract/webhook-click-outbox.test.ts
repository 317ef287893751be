import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LinkClicks } from '../../src/core/webhook-ports.js';
import { KyselyWebhookClickStore } from '../../src/storage/webhook-click-store.js';
import { KyselyWebhookStore } from '../../src/storage/webhook-store.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { createOwner, insertedLink, LATE_TIME } from '../support/contract-fixtures.js';

const NOW = LATE_TIME;

for (const backend of STORE_BACKENDS) {
  describe(`WebhookClickOutbox on ${backend.name}`, () => {
    const stores = storesFor(backend);
    let endpoints: KyselyWebhookStore;
    let workspaceId: number;
    let linkId: number;
    before(async () => {
      endpoints = new KyselyWebhookStore(stores.database.db);
      workspaceId = (await createOwner(stores.accounts)).workspaceId;
      linkId = (await insertedLink(stores.links, { workspaceId })).id;
    });

    /** The flush's clicks, counting how often they were asked for (a pass over all its visits). */
    const countedClicks = () => {
      const asked = { times: 0 };
      const clicks = (): readonly LinkClicks[] => {
        asked.times += 1;
        return [{ linkId, count: 3 }];
      };
      return { asked, clicks };
    };
    const clickRows = async () => (await stores.database.db.selectFrom('webhook_deliveries').select(['endpoint_id', 'payload'])
      .where('event_type', '=', 'link.clicked').execute()).map((row) => [Number(row.endpoint_id), JSON.parse(row.payload) as unknown]);

    test('without an endpoint that asked for link.clicked, a flush\'s clicks are never counted and nothing is queued', async () => {
      await endpoints.insertEndpoint({ workspaceId, url: 'http://127.0.0.1:9/', events: ['link.created'], secret: 'whsec_AAAA', createdAt: NOW });
      const { asked, clicks } = countedClicks();
      await new KyselyWebhookClickStore(stores.database.db).enqueueClicks(clicks, NOW);
      assert.equal(asked.times, 0);
      assert.deepEqual(await clickRows(), []);
    });

    test('with one, the clicks are counted once and queued for it with the link\'s code', async () => {
      const endpoint = await endpoints.insertEndpoint({ workspaceId, url: 'http://127.0.0.1:9/', events: ['link.clicked'], secret: 'whsec_BBBB', createdAt: NOW });
      const { asked, clicks } = countedClicks();
      await new KyselyWebhookClickStore(stores.database.db).enqueueClicks(clicks, NOW);
      assert.equal(asked.times, 1);
      const [row] = await clickRows();
      assert.equal(row?.[0], endpoint.id);
      assert.deepEqual((row?.[1] as { clicks: Array<{ linkId: number; count: number }> }).clicks.map(({ linkId: id, count }) => [id, count]), [[linkId, 3]]);
    });
  });
}
