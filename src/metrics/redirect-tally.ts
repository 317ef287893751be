import type { Metric } from 'prom-client';
import type { RedirectMetrics } from '../core/metrics-ports.js';

/** Upper bounds in seconds: a cache hit answers in tens of microseconds, a database miss in about a millisecond. */
export const REDIRECT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1] as const;

class StatusTally {
  /** Per bucket, not cumulative; the last slot is above every bound (+Inf). */
  readonly buckets = new Float64Array(REDIRECT_BUCKETS.length + 1);
  count = 0;
  sum = 0;
}

/**
 * The redirect responder's counts, kept as plain numbers: prom-client's `observe` hashes its labels
 * and costs about 0.7 µs, a few percent of a cache hit; an increment here costs nanoseconds. The
 * registry reads them at scrape time: as `linkforge_redirects_total` (a Counter, see
 * prometheus-metrics.ts) and as the histogram this class exposes itself.
 */
export class RedirectTally implements RedirectMetrics {
  /** Indexed by status code. */
  private readonly byStatus: (StatusTally | undefined)[] = [];

  answered(status: number, seconds: number): void {
    const tally = this.byStatus[status] ?? (this.byStatus[status] = new StatusTally());
    let slot = 0;
    while (slot < REDIRECT_BUCKETS.length && seconds > REDIRECT_BUCKETS[slot]!) slot++;
    tally.buckets[slot]! += 1;
    tally.count += 1;
    tally.sum += seconds;
  }

  /** Answers so far, by status. */
  counts(): Array<{ status: number; count: number }> {
    return this.statuses().map(([status, tally]) => ({ status, count: tally.count }));
  }

  /**
   * A prom-client metric (the shape its Registry reads: `get()` answering name, type and values)
   * exposing the tally as a histogram labelled by status, so the registry formats it with the rest.
   */
  histogram(name: string, help: string): Metric {
    const type = 'histogram'; // prom-client's typings declare MetricType numeric; its registry prints the string
    const metric = {
      name, help, type, aggregator: 'sum' as const,
      get: async () => ({ name, help, type, aggregator: 'sum' as const, values: this.histogramValues(name) }),
      reset: () => {},
    };
    return metric as unknown as Metric;
  }

  private histogramValues(name: string) {
    return this.statuses().flatMap(([status, tally]) => {
      const labels = { status: String(status) };
      let cumulative = 0;
      const buckets = [...REDIRECT_BUCKETS, Number.POSITIVE_INFINITY].map((bound, slot) => {
        cumulative += tally.buckets[slot]!;
        return { metricName: `${name}_bucket`, labels: { ...labels, le: bound === Number.POSITIVE_INFINITY ? '+Inf' : bound }, value: cumulative };
      });
      return [...buckets, { metricName: `${name}_sum`, labels, value: tally.sum }, { metricName: `${name}_count`, labels, value: tally.count }];
    });
  }

  private statuses(): Array<[number, StatusTally]> {
    return this.byStatus.flatMap((tally, status) => (tally ? [[status, tally] as [number, StatusTally]] : []));
  }
}
