import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Visit, VisitFacts } from '../../src/core/visit-ports.js';
import { batchOfVisits } from '../../src/core/visit-batch.js';
import { KyselyVisitorSaltStore } from '../../src/storage/visitor-salt-store.js';
import { KyselyVisitWriter, visitWriterFor } from '../../src/storage/visits/visit-writer.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { insertedLink } from '../support/contract-fixtures.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-03-01T00:00:00Z');
const human: VisitFacts = { visitorClass: 'human', referrerHost: null, browser: 'Firefox', os: 'Linux', device: 'desktop' };

const visit = (linkId: number, visitorId: number | undefined, visitedAt = T0): Visit => ({ linkId, visitedAt, latencyMs: 1, ...human, visitorId });

for (const backend of STORE_BACKENDS) {
  describe(`unique visitors in the database on ${backend.name} (ADR 0028)`, () => {
    const stores = storesFor(backend);
    const writers = () => [visitWriterFor(stores.database), new KyselyVisitWriter(stores.database.backgroundDb)];
    const visitorsByHour = async (linkId: number) => {
      const rows = await stores.database.db.selectFrom('link_clicks_hourly').select(['hour_start', 'unique_visitors'])
        .where('link_id', '=', linkId).where('visitor_class', '=', 'human').orderBy('hour_start').execute();
      return rows.map((row) => [Number(row.hour_start) - T0, Number(row.unique_visitors)]);
    };

    test('an id counts once per link day, in the hour first seen, whichever writer and batch brings it again', async () => {
      const [link, other] = [await insertedLink(stores.links), await insertedLink(stores.links)];
      const [writer, kysely] = writers();
      await writer!.recordBatch(batchOfVisits([visit(link.id, 1), visit(link.id, 1), visit(link.id, 2, T0 + HOUR), visit(link.id, 2), visit(link.id, undefined), visit(other.id, 1)]));
      await kysely!.recordBatch(batchOfVisits([visit(link.id, 1, T0 + HOUR), visit(link.id, 3, T0 + HOUR)]));
      await writer!.recordBatch(batchOfVisits([visit(link.id, 3, T0 + 2 * HOUR), visit(link.id, 1, T0 + DAY)]));
      assert.deepEqual(await visitorsByHour(link.id), [[0, 2], [HOUR, 1], [2 * HOUR, 0], [DAY, 1]]);
      assert.deepEqual(await visitorsByHour(other.id), [[0, 1]]);
    });

    test('the first salt of a day stays; forgetting deletes older salts and the ids of days before the given one', async () => {
      const salts = new KyselyVisitorSaltStore(stores.database.backgroundDb);
      const link = await insertedLink(stores.links);
      assert.equal(await salts.saltOfDay(T0, 'a'.repeat(64)), 'a'.repeat(64));
      assert.equal(await salts.saltOfDay(T0, 'b'.repeat(64)), 'a'.repeat(64), 'a second instance gets the first one\'s salt');
      assert.equal(await salts.saltOfDay(T0 + DAY, 'c'.repeat(64)), 'c'.repeat(64));
      await visitWriterFor(stores.database).recordBatch(batchOfVisits([visit(link.id, 7), visit(link.id, 8, T0 + DAY), visit(link.id, 9, T0 + 2 * DAY)]));
      await salts.forgetBefore(T0 + DAY, T0 + DAY);
      assert.equal(await salts.findSalt(T0), undefined);
      assert.equal(await salts.findSalt(T0 + DAY), 'c'.repeat(64));
      const ids = await stores.database.db.selectFrom('link_visitors').select(['day_start', 'visitor_id']).where('link_id', '=', link.id).orderBy('day_start').execute();
      assert.deepEqual(ids.map((row) => [Number(row.day_start) - T0, Number(row.visitor_id)]), [[DAY, 8], [2 * DAY, 9]]);
      assert.deepEqual(await visitorsByHour(link.id), [[0, 1], [DAY, 1], [2 * DAY, 1]], 'the counts stay');
    });
  });
}
