import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { classifyVisit } from '../../src/visits/visit-classifier.js';
import { classifiedBatch } from '../../src/visits/classified-batch.js';
import { VisitBuffer } from '../../src/visits/visit-buffer.js';
import { batchOfVisits, batchParts, splitBatch } from '../../src/core/visit-batch.js';
import type { VisitBatch, Visit, VisitorClass } from '../../src/core/visit-ports.js';
import { dayStartOf, hourStartOf, rollUp } from '../../src/core/visit-rollups.js';
import { BOT_AGENTS, HUMAN_AGENTS, PREVIEW_USER_AGENTS } from '../fixtures/user-agents.js';

const AGENTS = [HUMAN_AGENTS.firefoxLinux, HUMAN_AGENTS.safariIphone, BOT_AGENTS.googlebotSmartphone, PREVIEW_USER_AGENTS.appleMessages, undefined, ''];
const REFERERS = ['https://news.example/a?b', 'https://news.example/c', 'https://other.example/', undefined, ''];

interface Event { linkId: number; visitedAt: number; latencyMs: number; userAgent: string | undefined; referer: string | undefined }

/** `count` events of 7 links, their headers cycling through AGENTS and REFERERS. */
function events(count: number, from = 0): Event[] {
  return Array.from({ length: count }, (_, n) => {
    const i = from + n;
    return { linkId: 1 + (i % 7), visitedAt: 1_000 + i, latencyMs: i / 8, userAgent: AGENTS[i % AGENTS.length], referer: REFERERS[(i * 7) % REFERERS.length] };
  });
}

/** The events recorded into a buffer as the redirect path does, and taken as a flush does. */
function buffered(list: readonly Event[]) {
  let clock = 0;
  const buffer = new VisitBuffer(1_000_000, () => list[clock++]!.visitedAt);
  for (const event of list) buffer.record(event.linkId, event.latencyMs, event.userAgent, event.referer);
  return buffer.take();
}

function assertBatchOf(list: readonly Event[], batch: VisitBatch): void {
  assert.equal(batch.size, list.length);
  list.forEach((event, i) => {
    assert.deepEqual([batch.linkIds[i], batch.visitedAt[i], batch.latencyMs[i]], [event.linkId, event.visitedAt, event.latencyMs]);
    assert.deepEqual(batch.facts[batch.factsIndex[i]!], classifyVisit(event.userAgent ?? '', event.referer || undefined));
  });
}

describe('a flush batch from buffered events', () => {
  test('every visit carries the facts classifyVisit gives its headers; each distinct pair is classified once', async () => {
    const list = events(300);
    const batch = await classifiedBatch(buffered(list));
    assertBatchOf(list, batch);
    // A missing header is classified as an empty one: 5 agents × 4 referers at most.
    assert.ok(batch.facts.length <= 5 * 4, `${batch.facts.length} facts`);
  });

  test('the buffer keeps every event in order past its first allocation, each distinct header once', async () => {
    const list = events(10_000);
    const visits = buffered(list);
    assertBatchOf(list, await classifiedBatch(visits));
    assert.deepEqual([visits.agents.length, visits.referers.length], [5, 4], 'a missing header and an empty one are the same');
  });

  test('classifying many new User-Agents lets the event loop run between slices, instead of holding it for the whole batch', async () => {
    const list = Array.from({ length: 3_000 }, (_, i) => ({ ...events(1, i)[0]!, userAgent: `Mozilla/5.0 (X11; Linux x86_64; rv:${i}.0) Gecko/20100101 Firefox/${i}.0` }));
    let turns = 0;
    let counting = true;
    const count = () => { turns += 1; if (counting) setImmediate(count); };
    setImmediate(count);
    const batch = await classifiedBatch(buffered(list), 0);
    counting = false;
    assertBatchOf(list, batch);
    assert.ok(turns >= 10, `the event loop turned ${turns} times while 3,000 agents were classified`);
  });
});

describe('a batch cut into parts for the writer', () => {
  const arbitraryBatch = fc.array(fc.record({
    linkId: fc.integer({ min: 1, max: 5 }),
    visitedAt: fc.integer({ min: 0, max: 1e6 }),
    latencyMs: fc.integer({ min: 0, max: 100 }),
    visitorClass: fc.constantFrom<VisitorClass>('human', 'bot', 'preview'),
    referrerHost: fc.option(fc.stringMatching(/^[a-z]{1,40}\.example$/), { nil: null }),
    browser: fc.constantFrom(null, 'Firefox', 'Chrome'),
    os: fc.constant(null),
    device: fc.constant(null),
  }), { maxLength: 200 }).map((visits) => batchOfVisits(visits as Visit[]));
  const limits = fc.record({
    visits: fc.integer({ min: 1, max: 60 }), links: fc.integer({ min: 1, max: 6 }), facts: fc.integer({ min: 1, max: 20 }), factsChars: fc.integer({ min: 1, max: 400 }),
  });
  const factsOf = (batch: VisitBatch, i: number) => batch.facts[batch.factsIndex[i]!];
  const chars = (batch: VisitBatch) => batch.facts.reduce((sum, f) => sum + [f.visitorClass, f.referrerHost, f.browser, f.os, f.device].join('').length, 0);
  const visitsOf = (batch: VisitBatch) => Array.from({ length: batch.size }, (_, i) => [batch.linkIds[i], batch.visitedAt[i], batch.latencyMs[i], factsOf(batch, i)] as const);
  const byLink = (visits: readonly (readonly [number | undefined, ...unknown[]])[]) => {
    const links = new Map<unknown, unknown[]>();
    for (const visit of visits) links.set(visit[0], [...(links.get(visit[0]) ?? []), visit]);
    return new Map([...links].sort(([a], [b]) => Number(a) - Number(b)));
  };

  test('the parts hold every visit once, each link\'s in order, with its facts, and each part stays within the limits', () => {
    fc.assert(fc.property(arbitraryBatch, limits, (batch, limit) => {
      const parts = splitBatch(batch, limit);
      assert.deepEqual(byLink(parts.flatMap(visitsOf)), byLink(visitsOf(batch)));
      for (const part of parts) {
        assert.ok(part.size >= 1 && part.size <= limit.visits);
        assert.ok(new Set(part.linkIds).size <= limit.links);
        assert.equal(new Set(part.factsIndex).size, part.facts.length, 'a part carries only the facts its visits use');
        // A single visit whose facts alone pass the character limit goes alone.
        if (part.facts.length > 1) assert.ok(part.facts.length <= limit.facts && chars(part) <= limit.factsChars);
      }
      if (parts.length === 1) assert.deepEqual(visitsOf(parts[0]!), visitsOf(batch), 'a batch that fits stays whole, in arrival order');
    }));
  });

  test('cut by links, each link\'s visits go in one part when the visit and facts limits allow it, so its counters are written once', () => {
    fc.assert(fc.property(arbitraryBatch, fc.integer({ min: 1, max: 4 }), (batch, links) => {
      const parts = splitBatch(batch, { visits: 1_000, links, facts: 1_000, factsChars: 100_000 });
      const partsOfLink = new Map<number, number>();
      for (const part of parts) for (const linkId of new Set(part.linkIds)) partsOfLink.set(linkId, (partsOfLink.get(linkId) ?? 0) + 1);
      assert.ok([...partsOfLink.values()].every((count) => count === 1), JSON.stringify([...partsOfLink]));
      assert.equal(parts.length, Math.ceil(partsOfLink.size / links));
    }));
  });

  test('50,000 visits over 5,000 links interleaved go in parts of at most 1,000 links, each link in one part', () => {
    const visits: Visit[] = Array.from({ length: 50_000 }, (_, i) => ({
      linkId: 1 + (i % 5_000), visitedAt: i, latencyMs: 1, visitorClass: 'human', referrerHost: null, browser: 'Firefox', os: 'Linux', device: 'desktop',
    }));
    const parts = splitBatch(batchOfVisits(visits), { visits: 50_000, links: 1_000, facts: 10_000, factsChars: 2 * 1024 * 1024 });
    assert.deepEqual(parts.map((part) => [part.size, new Set(part.linkIds).size]), Array(5).fill([10_000, 1_000]));
  });

  test('cutting 50,000 visits of distinct links offers a pause point every few thousand visits, and the parts between them are splitBatch\'s', () => {
    const visits: Visit[] = Array.from({ length: 50_000 }, (_, i) => ({
      linkId: 50_000 - i, visitedAt: i, latencyMs: 1, visitorClass: 'human', referrerHost: null, browser: 'Firefox', os: 'Linux', device: 'desktop',
    }));
    const batch = batchOfVisits(visits);
    const limits = { visits: 50_000, links: 1_000, facts: 10_000, factsChars: 2 * 1024 * 1024 };
    const steps = [...batchParts(batch, limits)];
    const parts = steps.filter((step) => step !== undefined);
    assert.ok(steps.length - parts.length >= 2 * Math.floor(50_000 / 4_096), `${steps.length - parts.length} pause points`);
    assert.deepEqual(parts.map(visitsOf), splitBatch(batch, limits).map(visitsOf));
    assert.equal(parts.length, 50);
  });

  test('a batch over a few hot links offers pause points too: while it is checked whole, and while a part of it is cut and copied', () => {
    const hotVisits = (count: number): Visit[] => Array.from({ length: count }, (_, i) => ({
      linkId: 1 + (i % 1_000), visitedAt: i, latencyMs: 1, visitorClass: 'human', referrerHost: null, browser: 'Firefox', os: 'Linux', device: 'desktop',
    }));
    const limits = { visits: 50_000, links: 1_000, facts: 10_000, factsChars: 2 * 1024 * 1024 };
    const pauses = (steps: Array<VisitBatch | undefined>) => steps.filter((step) => step === undefined).length;
    const perPass = (count: number) => Math.floor(count / 4_096);

    const whole = batchOfVisits(hotVisits(40_000));
    const wholeSteps = [...batchParts(whole, limits)];
    assert.equal(wholeSteps.at(-1), whole, 'a batch that fits goes whole');
    assert.ok(pauses(wholeSteps) >= perPass(40_000), `${pauses(wholeSteps)} pause points while its links were counted`);

    // One visit over the limit: grouped by link (two passes), cut (one) and copied (one).
    const cut = batchOfVisits(hotVisits(50_001));
    const cutSteps = [...batchParts(cut, limits)];
    assert.deepEqual(cutSteps.filter((step) => step !== undefined).map((part) => part.size), [50_000, 1]);
    assert.ok(pauses(cutSteps) >= 4 * perPass(50_000), `${pauses(cutSteps)} pause points`);
  });

  test('100,000 visits, each from a new referrer host, go in parts of at most 10,000 distinct facts', () => {
    const visits: Visit[] = Array.from({ length: 100_000 }, (_, i) => ({
      linkId: 1, visitedAt: i, latencyMs: 1, visitorClass: 'human', referrerHost: `${'a'.repeat(230)}${i}.example.org`, browser: 'Firefox', os: 'Linux', device: 'desktop',
    }));
    const parts = splitBatch(batchOfVisits(visits), { visits: 50_000, links: 1_000, facts: 10_000, factsChars: 2 * 1024 * 1024 });
    assert.equal(parts.reduce((sum, part) => sum + part.size, 0), 100_000);
    assert.ok(parts.every((part) => part.facts.length <= 10_000 && chars(part) <= 2 * 1024 * 1024));
  });
});

describe('rollUp of a batch', () => {
  const classes: VisitorClass[] = ['human', 'bot', 'preview'];
  const visit = fc.record({
    linkId: fc.integer({ min: 1, max: 4 }),
    visitedAt: fc.integer({ min: 0, max: 5 * 86_400_000 }),
    latencyMs: fc.double({ min: 0, max: 100, noNaN: true }),
    visitorClass: fc.constantFrom(...classes),
    referrerHost: fc.constantFrom(null, 'a.example', 'b.example'),
    browser: fc.constantFrom(null, 'Firefox'),
    os: fc.constantFrom(null, 'Linux', 'iOS'),
    device: fc.constantFrom(null, 'desktop', 'bot'),
  });

  test('counts each visit once per hour and class and once per day, dimension and known value, as one-by-one counting does', () => {
    fc.assert(fc.property(fc.array(visit, { maxLength: 300 }), (visits: Visit[]) => {
      const rollups = rollUp(batchOfVisits(visits));
      const hourly = new Map<string, number>();
      const daily = new Map<string, number>();
      const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
      for (const v of visits) {
        bump(hourly, `${v.linkId} ${hourStartOf(v.visitedAt)} ${v.visitorClass}`);
        for (const [dimension, value] of [['referrer', v.referrerHost], ['browser', v.browser], ['os', v.os], ['device', v.device]] as const) {
          if (value !== null) bump(daily, `${v.linkId} ${dayStartOf(v.visitedAt)} ${dimension} ${value} ${v.visitorClass}`);
        }
      }
      assert.deepEqual(new Map(rollups.hourly.map((r) => [`${r.linkId} ${r.hourStart} ${r.visitorClass}`, r.clicks])), hourly);
      assert.deepEqual(new Map(rollups.daily.map((r) => [`${r.linkId} ${r.dayStart} ${r.dimension} ${r.value} ${r.visitorClass}`, r.clicks])), daily);
      assert.equal(rollups.hourly.length, hourly.size, 'each hourly key once');
      assert.equal(rollups.daily.length, daily.size, 'each daily key once');
      assert.equal(rollups.total.count, visits.length);
      for (const c of classes) assert.equal(rollups.total[c], visits.filter((v) => v.visitorClass === c).length);
      assert.equal([...rollups.perLink.values()].reduce((n, t) => n + t.count, 0), visits.length);
    }));
  });
});
