import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Place } from '../../src/core/visit-ports.js';
import { classifiedBatch } from '../../src/visits/classified-batch.js';
import { PLACE_SLOTS, PlaceSlots } from '../../src/visits/place-slots.js';
import { VisitBuffer } from '../../src/visits/visit-buffer.js';

const UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('the place of each visit, looked up by the flusher', () => {
  test('each distinct address is looked up once; its country, region and city go on, the address does not', async () => {
    const buffer = new VisitBuffer(100, () => 0);
    const places: Record<string, Place> = {
      '81.2.69.142': { country: 'GB', region: 'England', city: 'London' },
      '193.0.6.139': { country: 'NL', region: null, city: null },
    };
    for (const address of ['81.2.69.142', '193.0.6.139', '81.2.69.142', '10.0.0.1']) buffer.record(1, 1, UA, undefined, address);
    buffer.record(1, 1, UA, undefined); // DNT: recorded without an address
    const looked: string[] = [];
    const batch = await classifiedBatch(buffer.take(), undefined, (address) => {
      looked.push(address);
      return places[address] ?? null;
    });
    assert.deepEqual(looked, ['81.2.69.142', '193.0.6.139', '10.0.0.1']);
    const facts = Array.from(batch.factsIndex, (index) => batch.facts[index]!);
    assert.deepEqual(facts.map((f) => [f.country ?? null, f.region ?? null, f.city ?? null]), [
      ['GB', 'England', 'London'], ['NL', null, null], ['GB', 'England', 'London'], [null, null, null], [null, null, null],
    ]);
    assert.ok(!JSON.stringify(batch.facts).includes('81.2.69.142'));
  });

  test('past the slots a city may take, a place keeps its country: a flush from more cities than fit loses no country', () => {
    const slots = new PlaceSlots();
    for (let i = 1; slots.slotOf({ country: 'US', region: null, city: `Town ${i}` }) !== slots.slotOf({ country: 'US', region: null, city: null }); i++) {
      assert.ok(i < PLACE_SLOTS, 'cities stop taking slots before they run out');
    }
    const country = slots.slotOf({ country: 'FR', region: 'Brittany', city: 'Rennes' });
    assert.deepEqual(slots.placeAt(country), { country: 'FR', region: null, city: null });
    assert.equal(slots.slotOf(null), 0);
    assert.equal(slots.placeAt(0), null);
  });
});
