import { MAX_DESTINATIONS } from '../core/served-code.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type {
  BreakdownEntry, ClassCounts, ClickBucket, GlobalStats, LinkStatsRange, StatsReadStore,
} from '../core/stats-ports.js';
import { BREAKDOWN_DIMENSIONS, type BreakdownDimension, type VisitorClass } from '../core/visit-ports.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const emptyCounts = (): { -readonly [K in keyof ClassCounts]: number } => ({ total: 0, human: 0, bot: 0, preview: 0 });

function add(counts: ReturnType<typeof emptyCounts>, visitorClass: VisitorClass, clicks: number): void {
  if (visitorClass !== 'human' && visitorClass !== 'bot' && visitorClass !== 'preview') return;
  counts[visitorClass] += clicks;
  counts.total += clicks;
}

type DayRange = { readonly linkId: number; readonly from: number; readonly to: number };

const CLASSES = ['human', 'bot', 'preview'] as const satisfies readonly VisitorClass[];

/** Clicks of each visitor class among the grouped rows, in the same pass as the grouping. */
const classSums = (eb: ExpressionBuilder<Database, 'link_breakdown_daily'>) =>
  CLASSES.map((visitorClass) => eb.fn.sum<number | null>('clicks').filterWhere('visitor_class', '=', visitorClass).as(visitorClass));

function countsOf(row: Record<(typeof CLASSES)[number], number | string | null>): ClassCounts {
  const [human, bot, preview] = CLASSES.map((visitorClass) => Number(row[visitorClass] ?? 0)) as [number, number, number];
  return { total: human + bot + preview, human, bot, preview };
}

function subtract(from: ClassCounts, counts: ClassCounts | undefined): ClassCounts {
  if (!counts) return from;
  const [human, bot, preview] = CLASSES.map((visitorClass) => from[visitorClass] - counts[visitorClass]) as [number, number, number];
  return { total: human + bot + preview, human, bot, preview };
}

/** A city is listed only when known (ADR 0027): a visit without one is its country's; a destination only when a route or variant served it (ADR 0031). */
const EMPTY: ClassCounts = { total: 0, human: 0, bot: 0, preview: 0 };

/** The known values with the clicks of no known value (`null`) ranked among them, last among equals. */
function withUnknown(known: BreakdownEntry[], unknown: ClassCounts, limit: number): BreakdownEntry[] {
  const entries = known.filter((entry) => entry.clicks.total > 0);
  if (unknown.total > 0) {
    const after = entries.findIndex((entry) => entry.clicks.total < unknown.total);
    entries.splice(after === -1 ? entries.length : after, 0, { value: null, clicks: unknown });
  }
  return entries.slice(0, limit);
}

/** The read side for both SQLite and PostgreSQL: sums over roll-ups and counters, never over `visits`. */
export class KyselyStatsReadStore implements StatsReadStore {
  constructor(private readonly db: Kysely<Database>) {}

  findGlobalStats(now: number): Promise<GlobalStats> {
    return guarded(async () => {
      // (status, expires_at) serves this count: it walks the live links' index entries only.
      const [links, row] = await Promise.all([
        this.db.selectFrom('links')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('status', '=', 'ACTIVE')
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
          .executeTakeFirstOrThrow(),
        this.db.selectFrom('global_stats').selectAll().where('id', '=', 1).executeTakeFirst(),
      ]);
      const human = Number(row?.human_redirects ?? 0);
      const bot = Number(row?.bot_redirects ?? 0);
      const preview = Number(row?.preview_redirects ?? 0);
      return {
        totalLinks: Number(links.n),
        totalRedirects: Number(row?.total_redirects ?? 0),
        avgLatencyMs: Number(row?.avg_latency_ms ?? 0),
        redirects: { total: human + bot + preview, human, bot, preview },
      };
    });
  }

  listClickBuckets(range: LinkStatsRange): Promise<ClickBucket[]> {
    const size = range.interval === 'hour' ? HOUR : DAY;
    return guarded(async () => {
      // Hours are summed into days in the database: a year of hours is 26,000 rows, a year of days 1,100.
      const bucket = sql<number>`hour_start - (hour_start % ${sql.lit(size)})`;
      const rows = await this.db.selectFrom('link_clicks_hourly')
        .select([bucket.as('start'), 'visitor_class', (eb) => eb.fn.sum<number>('clicks').as('clicks'), (eb) => eb.fn.sum<number>('unique_visitors').as('visitors')])
        .where('link_id', '=', range.linkId)
        .where('hour_start', '>=', range.from)
        .where('hour_start', '<', range.to)
        .groupBy([bucket, 'visitor_class'])
        .orderBy(bucket)
        .execute();
      const buckets = new Map<number, ReturnType<typeof emptyCounts>>();
      const visitors = new Map<number, number>();
      for (const row of rows) {
        const start = Number(row.start);
        const counts = buckets.get(start) ?? emptyCounts();
        add(counts, row.visitor_class, Number(row.clicks));
        buckets.set(start, counts);
        visitors.set(start, (visitors.get(start) ?? 0) + Number(row.visitors));
      }
      return [...buckets].map(([start, clicks]) => ({ start, clicks, uniqueVisitors: visitors.get(start) ?? 0 }));
    });
  }

  listTopValues(range: LinkStatsRange, limit: number): Promise<Record<BreakdownDimension, BreakdownEntry[]>> {
    const days = { linkId: range.linkId, from: range.from - (range.from % DAY), to: range.to };
    return guarded(async () => {
      // Known values before the days' clicks: a flush committed in between can make null's count
      // larger for a moment, never negative.
      const known = await this.sumKnownValues(days);
      const dayTotals = await this.sumHours(range.linkId, days.from, Math.ceil(range.to / DAY) * DAY);
      const top = {} as Record<BreakdownDimension, BreakdownEntry[]>;
      for (const dimension of BREAKDOWN_DIMENSIONS) {
        // SQLite runs each statement synchronously on the main thread: redirects that arrived
        // meanwhile are answered between two dimensions rather than after the whole answer.
        await nextTurn();
        const unknown = dimension === 'city' || dimension === 'destination' ? EMPTY : subtract(dayTotals, known.get(dimension));
        // Every route and variant a link may hold is listed, not only the top few.
        const listed = dimension === 'destination' ? Math.max(limit, MAX_DESTINATIONS) : limit;
        top[dimension] = withUnknown(await this.topKnownValues(days, dimension, listed), unknown, listed);
      }
      return top;
    });
  }

  /**
   * The `limit` known values of one dimension with the most clicks over the days, ties by value
   * (bytewise on both databases: migration 011). The key (link, dimension, day, …) makes this one
   * contiguous read of the range; only the answer's rows leave the database.
   */
  private async topKnownValues(days: DayRange, dimension: BreakdownDimension, limit: number): Promise<BreakdownEntry[]> {
    const rows = await this.inDays(days)
      .where('dimension', '=', dimension)
      .select((eb) => ['value', eb.fn.sum<number>('clicks').as('total'), ...classSums(eb)])
      .groupBy('value')
      .orderBy('total', 'desc')
      .orderBy('value')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ value: row.value, clicks: countsOf(row) }));
  }

  /** Per dimension, the clicks that have a known value: the rest of the days' clicks are `null`'s. */
  private async sumKnownValues(days: DayRange): Promise<Map<BreakdownDimension, ClassCounts>> {
    const rows = await this.inDays(days)
      .where('dimension', 'in', BREAKDOWN_DIMENSIONS)
      .select((eb) => ['dimension', ...classSums(eb)])
      .groupBy('dimension')
      .execute();
    return new Map(rows.map((row) => [row.dimension, countsOf(row)]));
  }

  private inDays(days: DayRange) {
    return this.db.selectFrom('link_breakdown_daily')
      .where('link_id', '=', days.linkId)
      .where('day_start', '>=', days.from)
      .where('day_start', '<', days.to);
  }

  /** Clicks of one link in [from, to) by class, from the hourly roll-up. */
  private async sumHours(linkId: number, from: number, to: number): Promise<ReturnType<typeof emptyCounts>> {
    const rows = await this.db.selectFrom('link_clicks_hourly')
      .select(['visitor_class', (eb) => eb.fn.sum<number>('clicks').as('clicks')])
      .where('link_id', '=', linkId).where('hour_start', '>=', from).where('hour_start', '<', to)
      .groupBy('visitor_class')
      .execute();
    const counts = emptyCounts();
    for (const row of rows) add(counts, row.visitor_class, Number(row.clicks));
    return counts;
  }
}
