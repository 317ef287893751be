import { breakdownValue } from './breakdown-values.js';
import { BREAKDOWN_DIMENSIONS, type DailyBreakdown, type HourlyClicks, type VisitBatch, type VisitFacts, type VisitorClass, type VisitTotals } from './visit-ports.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Everything one flush adds, each key once (an upsert may not touch a row twice). */
export interface BatchRollups {
  readonly total: VisitTotals;
  readonly perLink: ReadonlyMap<number, VisitTotals>;
  readonly hourly: readonly HourlyClicks[];
  readonly daily: readonly DailyBreakdown[];
}

const emptyTotals = (): VisitTotals => ({ count: 0, latencySum: 0, human: 0, bot: 0, preview: 0 });

function add(totals: VisitTotals, latencyMs: number, visitorClass: VisitorClass): void {
  totals.count += 1;
  totals.latencySum += latencyMs;
  totals[visitorClass] += 1;
}

/** UTC buckets: epoch milliseconds are UTC, so flooring to a multiple gives the UTC hour or day. */
export const hourStartOf = (time: number) => Math.floor(time / HOUR_MS) * HOUR_MS;
export const dayStartOf = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;

/**
 * Sums a batch. An unknown value of a dimension (null) adds no breakdown row: a day's clicks of
 * unknown referrer are its clicks (the hourly roll-up) less the sum of its known referrers.
 */
export function rollUp(batch: VisitBatch): BatchRollups {
  const total = emptyTotals();
  const perLink = new Map<number, VisitTotals>();
  // Visits of one link, hour and facts count together first, under a number (hour · |facts| +
  // facts index): no string per visit, and the hourly and daily rows are built once per group.
  const groupsByLink = new Map<number, Map<number, number>>();
  const factCount = batch.facts.length;
  for (let i = 0; i < batch.size; i++) {
    const linkId = batch.linkIds[i]!;
    const factsIndex = batch.factsIndex[i]!;
    const { visitorClass } = batch.facts[factsIndex]!;
    const latencyMs = batch.latencyMs[i]!;
    add(total, latencyMs, visitorClass);
    let link = perLink.get(linkId);
    let groups = groupsByLink.get(linkId);
    if (!link || !groups) {
      perLink.set(linkId, (link = emptyTotals()));
      groupsByLink.set(linkId, (groups = new Map()));
    }
    add(link, latencyMs, visitorClass);
    const key = Math.floor(batch.visitedAt[i]! / HOUR_MS) * factCount + factsIndex;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const hourly = new Map<string, HourlyClicks>();
  const daily = new Map<string, DailyBreakdown>();
  for (const [linkId, groups] of groupsByLink) {
    for (const [key, clicks] of groups) {
      const hour = Math.floor(key / factCount);
      addGroup(hourly, daily, linkId, hour * HOUR_MS, batch.facts[key - hour * factCount]!, clicks);
    }
  }
  return { total, perLink, hourly: [...hourly.values()], daily: [...daily.values()] };
}

function addGroup(hourly: Map<string, HourlyClicks>, daily: Map<string, DailyBreakdown>, linkId: number, hourStart: number, facts: VisitFacts, clicks: number): void {
  const { visitorClass } = facts;
  const hourKey = `${linkId} ${hourStart} ${visitorClass}`;
  const hour = hourly.get(hourKey);
  if (hour) hour.clicks += clicks;
  else hourly.set(hourKey, { linkId, hourStart, visitorClass, clicks });
  const dayStart = dayStartOf(hourStart);
  for (const dimension of BREAKDOWN_DIMENSIONS) {
    const value = breakdownValue(facts, dimension);
    if (value === null) continue;
    const key = `${linkId} ${dayStart} ${dimension} ${visitorClass} ${value}`;
    const row = daily.get(key);
    if (row) row.clicks += clicks;
    else daily.set(key, { linkId, dayStart, dimension, value, visitorClass, clicks });
  }
}
