import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { VisitFlusher, MAX_ATTEMPTS } from '../../src/visits/visit-flusher.js';
import { VisitBuffer } from '../../src/visits/visit-buffer.js';
import type { VisitBatch, VisitWriter } from '../../src/core/visit-ports.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0';

/** A store at the flusher's seam: records every batch it is given, and refuses the first `failures`. */
function storeThatFails(failures: number): VisitWriter & { readonly written: VisitBatch[]; readonly attempts: number[] } {
  const written: VisitBatch[] = [];
  const attempts: number[] = [];
  let left = failures;
  return {
    written,
    attempts,
    async recordBatch(batch) {
      attempts.push(batch.size);
      if (left-- > 0) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      written.push(batch);
    },
  };
}

function flusherWith(store: VisitWriter, max = 1_000_000) {
  const buffer = new VisitBuffer(max, () => 1_000);
  const flusher = new VisitFlusher({ buffer, writer: store, intervalMs: 60_000, maxEvents: 50_000 });
  return { buffer, flusher };
}

const writtenVisits = (batches: readonly VisitBatch[]) => batches.reduce((sum, b) => sum + b.size, 0);
const referrersOf = (batches: readonly VisitBatch[]) => batches.flatMap((b) => Array.from(b.factsIndex, (i) => b.facts[i]!.referrerHost));

describe('the visit flusher', () => {
  test('a flush of 25,000 visits, each from a new referrer host, reaches the store in parts of at most 10,000 distinct facts, every visit once and in order', async () => {
    const store = storeThatFails(0);
    const { buffer, flusher } = flusherWith(store);
    for (let i = 0; i < 25_000; i++) buffer.record(1, 1, FIREFOX, `https://h${i}.example.org/`);
    await flusher.flushNow();
    assert.ok(store.written.length >= 3, `${store.written.length} parts`);
    assert.ok(store.written.every((batch) => batch.facts.length <= 10_000));
    assert.deepEqual(referrersOf(store.written), Array.from({ length: 25_000 }, (_, i) => `h${i}.example.org`));
  });

  test('every column of every batch it hands the store is on shared memory, so that posting it to the writer thread copies nothing', async () => {
    const store = storeThatFails(0);
    const buffer = new VisitBuffer(1_000_000, () => 1_000);
    const flusher = new VisitFlusher({ buffer, writer: store, intervalMs: 60_000, maxEvents: 50_000, saltOf: async () => Buffer.alloc(32, 7) });
    for (let i = 0; i < 100; i++) buffer.record(1, 1, FIREFOX, undefined, '198.51.100.7');
    await flusher.flushNow();
    for (let i = 0; i < 5_500; i++) buffer.record(1 + (i % 2_500), i, FIREFOX, undefined, '198.51.100.7');
    await flusher.flushNow();
    assert.ok(store.written.length >= 4, `${store.written.length} batches: one whole, the rest cut`);
    for (const batch of store.written) {
      const columns = { linkIds: batch.linkIds, visitedAt: batch.visitedAt, latencyMs: batch.latencyMs, factsIndex: batch.factsIndex, visitorIds: batch.visitorIds };
      for (const [name, column] of Object.entries(columns)) assert.ok(column?.buffer instanceof SharedArrayBuffer, `${name} of a batch of ${batch.size}`);
    }
  });

  test('a flush of 5,500 visits over 2,500 links reaches the store in writes of at most 1,000 links, each link in one write', async () => {
    const store = storeThatFails(0);
    const { buffer, flusher } = flusherWith(store);
    for (let i = 0; i < 5_500; i++) buffer.record(1 + (i % 2_500), i, FIREFOX, undefined);
    await flusher.flushNow();
    assert.deepEqual(store.written.map((batch) => new Set(batch.linkIds).size), [1_000, 1_000, 500]);
    assert.equal(writtenVisits(store.written), 5_500);
    const writesOfLink = new Map<number, number>();
    for (const batch of store.written) for (const linkId of new Set(batch.linkIds)) writesOfLink.set(linkId, (writesOfLink.get(linkId) ?? 0) + 1);
    assert.ok([...writesOfLink.values()].every((writes) => writes === 1));
  });

  test('the parts of one flush are in flight together up to the writer\'s writesAtOnce, one at a time without it', async () => {
    for (const writesAtOnce of [undefined, 2, 64]) {
      let inFlight = 0;
      let most = 0;
      const written: VisitBatch[] = [];
      const store: VisitWriter = {
        writesAtOnce,
        async recordBatch(batch) {
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inFlight -= 1;
          written.push(batch);
        },
      };
      const { buffer, flusher } = flusherWith(store);
      for (let i = 0; i < 5_500; i++) buffer.record(1 + (i % 2_500), i, FIREFOX, undefined);
      await flusher.flushNow();
      assert.equal(most, Math.min(writesAtOnce ?? 1, 3), `writesAtOnce ${writesAtOnce}`);
      assert.equal(writtenVisits(written), 5_500);
    }
  });

  test('a part that fails beside others that were written is retried alone; the others are written once', async () => {
    const attempts: number[] = [];
    const written: VisitBatch[] = [];
    let failNext = true;
    const store: VisitWriter = {
      writesAtOnce: 64,
      async recordBatch(batch) {
        attempts.push(batch.size);
        if (batch.linkIds.includes(1_500) && failNext) {
          failNext = false;
          throw new Error('disk I/O error');
        }
        written.push(batch);
      },
    };
    const { buffer, flusher } = flusherWith(store);
    for (let i = 0; i < 2_500; i++) buffer.record(1 + i, i, FIREFOX, undefined);
    await assert.rejects(flusher.flushNow());
    assert.deepEqual(written.map((batch) => batch.size), [1_000, 500]);
    await flusher.flushNow();
    assert.deepEqual(attempts, [1_000, 1_000, 500, 500, 500]);
    assert.deepEqual(new Set(written.flatMap((batch) => Array.from(batch.linkIds))).size, 2_500);
    assert.equal(writtenVisits(written), 2_500);
    assert.equal(buffer.dropped, 0);
  });

  test(`visits whose writes failed ${MAX_ATTEMPTS} times are given up on and counted as dropped, never retried for ever`, async () => {
    // This store refuses every batch that holds a visit of link 1 (a batch it can never write).
    const attempts: number[][] = [];
    const written: VisitBatch[] = [];
    const store: VisitWriter = {
      async recordBatch(batch) {
        attempts.push(Array.from(batch.latencyMs));
        if (batch.linkIds.includes(1)) throw new Error('poison');
        written.push(batch);
      },
    };
    const { buffer, flusher } = flusherWith(store);
    for (let i = 0; i < 3; i++) buffer.record(1, i, FIREFOX, undefined);
    let failures = 0;
    for (let flush = 0; flush < 50 && buffer.dropped < 3; flush++) await flusher.flushNow().catch(() => { failures += 1; });
    assert.equal(buffer.dropped, 3);
    for (let visit = 0; visit < 3; visit++) {
      assert.equal(attempts.filter((latencies) => latencies.includes(visit)).length, MAX_ATTEMPTS, `visit ${visit} was tried ${MAX_ATTEMPTS} times`);
    }
    buffer.record(2, 7, FIREFOX, undefined);
    await flusher.flushNow();
    assert.equal(writtenVisits(written), 1, 'the visit recorded after the give-up is written');
    assert.ok(failures <= 3 * MAX_ATTEMPTS);
  });

  test('a failed part is retried on its own, cut in two, before the visits that came after it', async () => {
    const store = storeThatFails(1);
    const { buffer, flusher } = flusherWith(store);
    for (let i = 0; i < 10; i++) buffer.record(1, 1, FIREFOX, `https://old${i}.example/`);
    await assert.rejects(flusher.flushNow());
    for (let i = 0; i < 4; i++) buffer.record(2, 1, FIREFOX, `https://new${i}.example/`);
    await flusher.flushNow();
    assert.deepEqual(store.attempts, [10, 5, 5, 4]);
    assert.deepEqual(referrersOf(store.written), [...Array.from({ length: 10 }, (_, i) => `old${i}.example`), ...Array.from({ length: 4 }, (_, i) => `new${i}.example`)]);
    assert.equal(buffer.dropped, 0);
  });

  test('visits waiting for a retry still count against the buffer\'s bound', async () => {
    const store = storeThatFails(1);
    const { buffer, flusher } = flusherWith(store, 5);
    for (let i = 0; i < 4; i++) buffer.record(1, 1, FIREFOX, undefined);
    await assert.rejects(flusher.flushNow());
    for (let i = 0; i < 3; i++) buffer.record(1, 1, FIREFOX, undefined);
    assert.equal(buffer.dropped, 2);
    await flusher.flushNow();
    assert.equal(writtenVisits(store.written), 5);
  });
});

describe('the visit buffer bounds what hostile headers cost', () => {
  test('keeps at most 512 characters of a User-Agent', async () => {
    const { buffer } = flusherWith(storeThatFails(0));
    buffer.record(1, 1, `Mozilla/5.0 ${'x'.repeat(8_000)}`, undefined);
    const visits = buffer.take();
    assert.equal(visits.agents[0]!.length, 512);
  });

  test('cuts a long Referer where its path starts, keeping its host, and keeps none of one whose host part is too long', () => {
    const { buffer } = flusherWith(storeThatFails(0));
    buffer.record(1, 1, FIREFOX, `https://news.example/${'p'.repeat(5_000)}`);
    buffer.record(1, 1, FIREFOX, `https://${'u'.repeat(5_000)}@news.example/`);
    buffer.record(1, 1, FIREFOX, `https://news.example?${'q'.repeat(5_000)}`);
    const visits = buffer.take();
    assert.deepEqual(Array.from(visits.refererIndex, (i) => visits.referers[i]), ['https://news.example', '', 'https://news.example']);
  });

  test('a visit whose new header text would pass the buffer\'s text bound is dropped and counted; known headers still record', () => {
    const { buffer } = flusherWith(storeThatFails(0));
    // 512-character agents: 8 MiB of text holds 16,384 of them.
    const agent = (i: number) => `${i}`.padEnd(512, 'x');
    for (let i = 0; i < 20_000; i++) buffer.record(1, 1, agent(i), undefined);
    assert.ok(buffer.dropped >= 20_000 - 16_384 && buffer.dropped < 20_000 - 16_000, `${buffer.dropped} dropped`);
    const before = buffer.dropped;
    buffer.record(1, 1, agent(0), undefined);
    assert.equal(buffer.dropped, before, 'an agent already held costs no text');
  });

  test('header text past a few megabytes asks for an early flush', () => {
    const { buffer } = flusherWith(storeThatFails(0));
    let asked = 0;
    buffer.onReach(1_000_000, () => { asked += 1; });
    for (let i = 0; i < 5_000; i++) buffer.record(1, 1, `${i}`.padEnd(512, 'x'), undefined);
    assert.equal(asked, 1);
    assert.equal(buffer.wantsFlush, true);
  });
});
