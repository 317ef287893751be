import { sql, type Kysely } from 'kysely';
import {
  BREAKDOWN_DIMENSIONS, type AnalyticsReadStore, type BreakdownDimension, type BreakdownEntry, type ClassCounts,
  type ClickBucket, type GlobalStats, type LinkStatsRange, type VisitorClass,
} from '../core/analytics-ports.js';
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

/** Values in ascending order, the unknown (null) last among equals. */
const order = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/** The read side for both SQLite and PostgreSQL: sums over roll-ups and counters, never over `visits`. */
export class KyselyAnalyticsReadStore implements AnalyticsReadStore {
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
        .select([bucket.as('start'), 'visitor_class', (eb) => eb.fn.sum<number>('clicks').as('clicks')])
        .where('link_id', '=', range.linkId)
        .where('hour_start', '>=', range.from)
        .where('hour_start', '<', range.to)
        .groupBy([bucket, 'visitor_class'])
        .orderBy(bucket)
        .execute();
      const buckets = new Map<number, ReturnType<typeof emptyCounts>>();
      for (const row of rows) {
        const start = Number(row.start);
        const counts = buckets.get(start) ?? emptyCounts();
        add(counts, row.visitor_class, Number(row.clicks));
        buckets.set(start, counts);
      }
      return [...buckets].map(([start, clicks]) => ({ start, clicks }));
    });
  }

  listTopValues(range: LinkStatsRange, limit: number): Promise<Record<BreakdownDimension, BreakdownEntry[]>> {
    const dayFrom = range.from - (range.from % DAY);
    return guarded(async () => {
      const [rows, dayTotals] = await Promise.all([
        this.db.selectFrom('link_breakdown_daily')
          .select(['dimension', 'value', 'visitor_class', (eb) => eb.fn.sum<number>('clicks').as('clicks')])
          .where('link_id', '=', range.linkId)
          .where('day_start', '>=', dayFrom)
          .where('day_start', '<', range.to)
          .groupBy(['dimension', 'value', 'visitor_class'])
          .execute(),
        this.sumHours(range.linkId, dayFrom, Math.ceil(range.to / DAY) * DAY),
      ]);
      const byDimension = new Map<BreakdownDimension, Map<string | null, ReturnType<typeof emptyCounts>>>();
      for (const dimension of BREAKDOWN_DIMENSIONS) byDimension.set(dimension, new Map([[null, { ...dayTotals }]]));
      for (const row of rows) {
        const values = byDimension.get(row.dimension)!;
        const counts = values.get(row.value) ?? emptyCounts();
        const clicks = Number(row.clicks);
        add(counts, row.visitor_class, clicks);
        add(values.get(null)!, row.visitor_class, -clicks);
        values.set(row.value, counts);
      }
      const top = (dimension: BreakdownDimension): BreakdownEntry[] =>
        [...byDimension.get(dimension)!]
          .filter(([, clicks]) => clicks.total > 0)
          .sort(([a, x], [b, y]) => y.total - x.total || order(a, b))
          .slice(0, limit)
          .map(([value, clicks]) => ({ value, clicks }));
      return Object.fromEntries(BREAKDOWN_DIMENSIONS.map((dimension) => [dimension, top(dimension)])) as Record<BreakdownDimension, BreakdownEntry[]>;
    });
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
