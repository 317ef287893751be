import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { VisitBatch, VisitWriter } from '../../src/core/visit-ports.js';
import type { VisitorSaltStore } from '../../src/core/visitor-ports.js';
import { visitorSightings } from '../../src/core/visitor-sightings.js';
import { VisitBuffer } from '../../src/visits/visit-buffer.js';
import { VisitFlusher } from '../../src/visits/visit-flusher.js';
import { visitorIdOf } from '../../src/visits/visitor-ids.js';
import { VisitorSalts } from '../../src/visits/visitor-salts.js';
import { TestClock } from '../support/test-clock.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PREVIEW = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

/** The database's salts at the seam: what VisitorSalts asks of it, and what it holds. */
function saltStore(): VisitorSaltStore & { readonly salts: Map<number, string>; readonly calls: string[]; failing: boolean } {
  const salts = new Map<number, string>();
  const calls: string[] = [];
  return {
    salts, calls, failing: false,
    async saltOfDay(day, candidate) {
      calls.push(`saltOfDay ${day}`);
      if (this.failing) throw new Error('database unavailable');
      if (!salts.has(day)) salts.set(day, candidate);
      return salts.get(day)!;
    },
    async findSalt(day) {
      return salts.get(day);
    },
    async forgetBefore(day, idsBefore) {
      calls.push(`forgetBefore ${day} ${idsBefore}`);
      for (const key of salts.keys()) if (key < day) salts.delete(key);
    },
  };
}

describe('visitor ids: HMAC-SHA256 of (address, User-Agent, link) under the day salt', () => {
  test('an id is a 48-bit integer that changes with the salt, the address, the User-Agent and the link, and only with them', () => {
    const salt = Buffer.alloc(32, 1);
    const id = visitorIdOf(salt, '198.51.100.1', FIREFOX, 7);
    assert.ok(Number.isSafeInteger(id) && id >= 0 && id < 2 ** 48);
    assert.equal(visitorIdOf(Buffer.alloc(32, 1), '198.51.100.1', FIREFOX, 7), id);
    const others = [
      visitorIdOf(Buffer.alloc(32, 2), '198.51.100.1', FIREFOX, 7), visitorIdOf(salt, '198.51.100.2', FIREFOX, 7),
      visitorIdOf(salt, '198.51.100.1', CHROME, 7), visitorIdOf(salt, '198.51.100.1', FIREFOX, 8),
    ];
    assert.equal(new Set([id, ...others]).size, 5);
  });

  test('the day salt is made once and held; a new day makes another and forgets the older salts and the ids before yesterday', async () => {
    const clock = new TestClock(Date.parse('2026-05-01T10:00:00Z'));
    const today = Date.parse('2026-05-01T00:00:00Z');
    const store = saltStore();
    const salts = new VisitorSalts(store, clock);
    const first = await salts.saltOf(today);
    assert.equal(first?.length, 32);
    assert.equal(await salts.saltOf(today), first);
    assert.deepEqual(store.calls, [`saltOfDay ${today}`, `forgetBefore ${today} ${today - DAY}`], 'once a day, not once a flush');

    clock.advance(DAY);
    const second = await salts.saltOf(today + DAY);
    assert.ok(second !== undefined && !second.equals(first!));
    assert.deepEqual([...store.salts.keys()], [today + DAY], 'yesterday\'s salt is deleted');
    assert.equal(await salts.saltOf(today), first, 'a visit of yesterday flushed after midnight still gets its id, from memory');
    clock.advance(DAY);
    assert.notEqual(await salts.saltOf(today + 2 * DAY), undefined);
    assert.equal(await salts.saltOf(today), undefined, 'the day before yesterday gets no id');
    assert.equal(await salts.saltOf(today + 3 * DAY), undefined, 'nor does a day not yet begun');
  });

  test('a salt the database cannot give means no visitor id, and the error is reported', async () => {
    const store = saltStore();
    store.failing = true;
    const errors: unknown[] = [];
    const clock = new TestClock();
    const salts = new VisitorSalts(store, clock, (error) => errors.push(error));
    assert.equal(await salts.saltOf(clock.now()), undefined);
    assert.equal(errors.length, 1);
  });

  test('the flusher gives people an id; bots, previews and visits recorded without an address get none', async () => {
    const written: VisitBatch[] = [];
    const writer: VisitWriter = { async recordBatch(batch) { written.push(batch); } };
    const clock = new TestClock();
    const buffer = new VisitBuffer(1_000, () => clock.now());
    const salts = new VisitorSalts(saltStore(), clock);
    const flusher = new VisitFlusher({ buffer, writer, intervalMs: 60_000, maxEvents: 1_000, saltOf: (day) => salts.saltOf(day) });
    buffer.record(1, 1, FIREFOX, undefined, '198.51.100.1');
    buffer.record(1, 1, FIREFOX, undefined, '198.51.100.1');
    buffer.record(1, 1, CHROME, undefined, '198.51.100.1');
    buffer.record(1, 1, BOT, undefined, '198.51.100.2');
    buffer.record(1, 1, PREVIEW, undefined, '198.51.100.3');
    buffer.record(1, 1, FIREFOX, undefined, undefined);
    await flusher.flushNow();
    const ids = Array.from(written[0]!.visitorIds!);
    assert.equal(ids[0], ids[1]);
    assert.notEqual(ids[0], ids[2]);
    assert.ok(ids.slice(3).every(Number.isNaN), String(ids));
    assert.equal(visitorSightings(written[0]!).length, 2);
  });

  test('a batch\'s sightings: one per link, day and id, in the earliest hour it was seen', () => {
    const T0 = Date.parse('2026-05-01T00:00:00Z');
    const batch = {
      size: 5, linkIds: Float64Array.of(1, 1, 2, 1, 1), visitedAt: Float64Array.of(T0 + 2 * HOUR, T0 + HOUR, T0, T0 + DAY, T0),
      latencyMs: new Float64Array(5), factsIndex: new Uint32Array(5), facts: [], visitorIds: Float64Array.of(9, 9, 9, 9, Number.NaN),
    };
    assert.deepEqual(visitorSightings(batch).map((s) => [s.linkId, s.dayStart - T0, s.hourStart - T0]), [[1, 0, HOUR], [2, 0, 0], [1, DAY, DAY]]);
  });
});
