import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { classifyVisit } from '../../src/analytics/classify-visit.js';
import { classifiedBatch } from '../../src/analytics/visit-batch.js';
import { concatVisits, VisitBuffer } from '../../src/analytics/visit-buffer.js';
import { batchOfVisits } from '../../src/core/analytics-batch.js';
import type { AnalyticsBatch, Visit, VisitorClass } from '../../src/core/analytics-ports.js';
import { dayStartOf, hourStartOf, rollUp } from '../../src/core/analytics-rollups.js';
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

function assertBatchOf(list: readonly Event[], batch: AnalyticsBatch): void {
  assert.equal(batch.size, list.length);
  list.forEach((event, i) => {
    assert.deepEqual([batch.linkIds[i], batch.visitedAt[i], batch.latencyMs[i]], [event.linkId, event.visitedAt, event.latencyMs]);
    assert.deepEqual(batch.facts[batch.factsIndex[i]!], classifyVisit(event.userAgent ?? '', event.referer || undefined));
  });
}

describe('a flush batch from buffered events', () => {
  test('every visit carries the facts classifyVisit gives its headers; each distinct pair is classified once', () => {
    const list = events(300);
    const batch = classifiedBatch(buffered(list));
    assertBatchOf(list, batch);
    // A missing header is classified as an empty one: 5 agents × 4 referers at most.
    assert.ok(batch.facts.length <= 5 * 4, `${batch.facts.length} facts`);
  });

  test('the buffer keeps every event in order past its first allocation, each distinct header once', () => {
    const list = events(10_000);
    const visits = buffered(list);
    assertBatchOf(list, classifiedBatch(visits));
    assert.deepEqual([visits.agents.length, visits.referers.length], [5, 4], 'a missing header and an empty one are the same');
  });

  test("a failed flush's visits followed by the next ones are one batch of both, in order", () => {
    const [failed, next] = [events(40), events(25, 40)];
    assertBatchOf([...failed, ...next], classifiedBatch(concatVisits(buffered(failed), buffered(next))));
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
