import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KyselyWebhookOutboxStore } from '../../src/storage/webhook-outbox-store.js';
import { KyselyWebhookStore } from '../../src/storage/webhook-store.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { LATE_TIME } from '../support/contract-fixtures.js';

const NOW = LATE_TIME;
const TTL = 30_000;
let nextLinkId = 1;

for (const backend of STORE_BACKENDS) {
  describe(`WebhookOutbox on ${backend.name}`, () => {
    const stores = storesFor(backend);
    let outbox: KyselyWebhookOutboxStore;
    let endpoints: KyselyWebhookStore;
    let workspaceId: number;
    before(async () => {
      outbox = new KyselyWebhookOutboxStore(stores.database.db, stores.database.dialect);
      endpoints = new KyselyWebhookStore(stores.database.db);
      workspaceId = Number((await stores.database.db.insertInto('workspaces')
        .values({ name: 'hooks', is_personal: 0, created_by: null, created_at: NOW }).returning('id').executeTakeFirstOrThrow()).id);
    });

    const newEndpoint = async () => (await endpoints.insertEndpoint({ workspaceId, url: 'http://127.0.0.1:9/', events: ['link.created'], secret: 'whsec_AAAA', createdAt: NOW })).id;
    /** Outbox rows for these links (one row each, in order), due now; answers their ids. */
    const enqueue = async (endpointId: number, linkIds: readonly number[]) => (await stores.database.db.insertInto('webhook_deliveries').values(linkIds.map((linkId) => ({
      endpoint_id: endpointId, event_type: 'link.created', link_id: linkId, payload: '{}', occurred_at: NOW, status: 'pending' as const, attempts: 0, next_attempt_at: 0,
    }))).returning('id').execute()).map((row) => Number(row.id));
    const claimIds = async (now: number, limit = 100) => (await outbox.claimDue(now, now + TTL, limit)).map((claimed) => claimed.id);

    test('only the oldest pending event of a link is due; the next one is once it is delivered', async () => {
      const endpoint = await newEndpoint();
      const [a, b] = [nextLinkId++, nextLinkId++];
      const [a1, a2, b1] = await enqueue(endpoint, [a, a, b]);
      assert.deepEqual(await claimIds(NOW), [a1, b1]);
      await outbox.recordDelivered(a1!, 200, NOW);
      await outbox.recordDelivered(b1!, 200, NOW);
      assert.deepEqual(await claimIds(NOW), [a2]);
      await outbox.recordDelivered(a2!, 200, NOW);
    });

    test('a claim holds its rows until claimed_until; then they are claimed again, the attempt counted', async () => {
      const endpoint = await newEndpoint();
      const [row] = await enqueue(endpoint, [nextLinkId++]);
      const first = await outbox.claimDue(NOW, NOW + TTL, 100);
      assert.deepEqual(first.map((c) => [c.id, c.attempts]), [[row, 1]]);
      assert.deepEqual(await claimIds(NOW + TTL - 1), []);
      const again = await outbox.claimDue(NOW + TTL + 1, NOW + 2 * TTL, 100);
      assert.deepEqual(again.map((c) => [c.id, c.attempts]), [[row, 2]]);
      await outbox.recordDelivered(row!, 204, NOW);
    });

    test('two claims at once take disjoint rows, together all of them', async () => {
      const endpoint = await newEndpoint();
      const rows = await enqueue(endpoint, Array.from({ length: 40 }, () => nextLinkId++));
      const [one, two] = await Promise.all([claimIds(NOW, 40), claimIds(NOW, 40)]);
      assert.deepEqual([...one!, ...two!].sort((x, y) => x - y), rows);
      for (const id of rows) await outbox.recordDelivered(id, 200, NOW);
    });

    test('a failure schedules the next attempt or gives up, and disables the endpoint once it has failed long enough', async () => {
      const endpoint = await newEndpoint();
      const [first, second] = await enqueue(endpoint, [nextLinkId++, nextLinkId++]);
      await claimIds(NOW);
      const failure = { lastStatus: 500, lastError: 'HTTP 500', disableIfFailingSince: NOW - 1000, reason: 'failing' };
      await outbox.recordFailed(first!, { ...failure, nextAttemptAt: NOW + 5_000 }, NOW);
      assert.deepEqual(await claimIds(NOW + 4_999), []);
      await outbox.recordFailed(second!, { ...failure, nextAttemptAt: undefined }, NOW + 500);
      assert.equal((await endpoints.findEndpoint(workspaceId, endpoint))!.enabled, true, 'failing since NOW, not long enough');
      assert.deepEqual((await endpoints.listDeliveries(endpoint, 10)).map((d) => [d.id, d.status, d.nextAttemptAt, d.lastError]),
        [[second, 'failed', null, 'HTTP 500'], [first, 'pending', NOW + 5_000, 'HTTP 500']]);
      await claimIds(NOW + 5_000);
      await outbox.recordFailed(first!, { ...failure, nextAttemptAt: NOW + 60_000, disableIfFailingSince: NOW }, NOW + 5_000);
      const disabled = (await endpoints.findEndpoint(workspaceId, endpoint))!;
      assert.deepEqual([disabled.enabled, disabled.disabledReason], [false, 'failing']);
      assert.deepEqual(await claimIds(NOW + 60_000), [], 'a disabled endpoint\'s rows are not due');
      await endpoints.updateEndpoint(workspaceId, endpoint, { enabled: true, updatedAt: NOW });
      assert.deepEqual(await claimIds(NOW + 60_000), [first]);
      await outbox.recordDelivered(first!, 200, NOW);
    });

  });
}
