import type { BreakdownDimension, Visit, VisitorClass } from './analytics-ports.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Running counts by visitor class while a batch is rolled up (the read side's ClassCounts adds a total). */
interface ClassTally {
  human: number;
  bot: number;
  preview: number;
}

/** A batch's visits of one link, or of all links: how many, their latency sum, their split by class. */
export interface VisitTotals extends ClassTally {
  count: number;
  latencySum: number;
}

export interface HourlyClicks {
  readonly linkId: number;
  readonly hourStart: number;
  readonly visitorClass: VisitorClass;
  clicks: number;
}

export interface DailyBreakdown {
  readonly linkId: number;
  readonly dayStart: number;
  readonly dimension: BreakdownDimension;
  readonly value: string;
  readonly visitorClass: VisitorClass;
  clicks: number;
}

/** Everything one flush adds, each key once (an upsert may not touch a row twice). */
export interface BatchRollups {
  readonly total: VisitTotals;
  readonly perLink: ReadonlyMap<number, VisitTotals>;
  readonly hourly: readonly HourlyClicks[];
  readonly daily: readonly DailyBreakdown[];
}

const emptyTotals = (): VisitTotals => ({ count: 0, latencySum: 0, human: 0, bot: 0, preview: 0 });

function add(totals: VisitTotals, visit: Visit): void {
  totals.count += 1;
  totals.latencySum += visit.latencyMs;
  totals[visit.visitorClass] += 1;
}

/** UTC buckets: epoch milliseconds are UTC, so flooring to a multiple gives the UTC hour or day. */
export const hourStartOf = (time: number) => Math.floor(time / HOUR_MS) * HOUR_MS;
export const dayStartOf = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;

/**
 * Sums a batch. An unknown value of a dimension (null) adds no breakdown row: a day's clicks of
 * unknown referrer are its clicks (the hourly roll-up) less the sum of its known referrers.
 */
export function rollUp(visits: readonly Visit[]): BatchRollups {
  const total = emptyTotals();
  const perLink = new Map<number, VisitTotals>();
  // Visits of one link, hour and set of facts count together first: one key per visit, and the
  // hourly and daily rows are built once per group rather than once per visit.
  const groups = new Map<string, { visit: Visit; clicks: number }>();
  for (const visit of visits) {
    add(total, visit);
    let link = perLink.get(visit.linkId);
    if (!link) perLink.set(visit.linkId, (link = emptyTotals()));
    add(link, visit);
    const key = `${visit.linkId}|${hourStartOf(visit.visitedAt)}|${visit.visitorClass}|${visit.referrerHost}|${visit.browser}|${visit.os}|${visit.device}`;
    const group = groups.get(key);
    if (group) group.clicks += 1;
    else groups.set(key, { visit, clicks: 1 });
  }
  const hourly = new Map<string, HourlyClicks>();
  const daily = new Map<string, DailyBreakdown>();
  for (const { visit, clicks } of groups.values()) {
    const hourStart = hourStartOf(visit.visitedAt);
    const hourKey = `${visit.linkId} ${hourStart} ${visit.visitorClass}`;
    const hour = hourly.get(hourKey);
    if (hour) hour.clicks += clicks;
    else hourly.set(hourKey, { linkId: visit.linkId, hourStart, visitorClass: visit.visitorClass, clicks });
    const dayStart = dayStartOf(visit.visitedAt);
    const values: [BreakdownDimension, string | null][] = [['referrer', visit.referrerHost], ['browser', visit.browser], ['os', visit.os], ['device', visit.device]];
    for (const [dimension, value] of values) {
      if (value === null) continue;
      const key = `${visit.linkId} ${dayStart} ${dimension} ${visit.visitorClass} ${value}`;
      const row = daily.get(key);
      if (row) row.clicks += clicks;
      else daily.set(key, { linkId: visit.linkId, dayStart, dimension, value, visitorClass: visit.visitorClass, clicks });
    }
  }
  return { total, perLink, hourly: [...hourly.values()], daily: [...daily.values()] };
}
