import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CleanupMetrics, FinishedCleanupRun } from '../core/cleanup-ports.js';
import type {
  CacheTier, HttpMetrics, LookupMetrics, LookupResult,
} from '../core/metrics-ports.js';
import { RedirectTally } from './redirect-tally.js';
import { registerScrapeTimeGauges, type MetricsSources } from './scrape-time-gauges.js';

const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const REAPER_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900];
const TIERS: readonly CacheTier[] = ['memory', 'redis', 'database'];
const RESULTS: readonly LookupResult[] = ['hit', 'miss', 'error'];

type LookupCounts = Record<CacheTier, Record<LookupResult, number>>;

/**
 * The metrics of one app instance, on a registry of its own (never prom-client's global one:
 * tests build many apps in one process). Names and labels: ADR 0018.
 */
export class PrometheusMetrics implements HttpMetrics, LookupMetrics, CleanupMetrics {
  readonly registry = new Registry();
  readonly redirects = new RedirectTally();
  private readonly lookups: LookupCounts = {
    memory: { hit: 0, miss: 0, error: 0 },
    redis: { hit: 0, miss: 0, error: 0 },
    database: { hit: 0, miss: 0, error: 0 },
  };
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly requestDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly reaperRuns: Counter<'status'>;
  private readonly reaperRows: Counter<'action'>;
  private readonly reaperDuration: Histogram;
  private readonly reaperLastSuccess: Gauge;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'linkforge_http_requests_total', help: 'Requests answered by the API and pages (not the redirect fast path), by route pattern and status.',
      labelNames: ['method', 'route', 'status'], registers,
    });
    this.requestDuration = new Histogram({
      name: 'linkforge_http_request_duration_seconds', help: 'Time to answer a request, by route pattern and status.',
      labelNames: ['method', 'route', 'status'], buckets: REQUEST_BUCKETS, registers,
    });
    const redirects = this.redirects;
    new Counter({
      name: 'linkforge_redirects_total', help: 'Answers of GET|HEAD /{code}, by status (301/302/307/308 redirect, 404, 410, 503), counted by the redirect responder.',
      labelNames: ['status'], registers,
      collect() {
        this.reset();
        for (const { status, count } of redirects.counts()) this.inc({ status: String(status) }, count);
      },
    });
    this.registry.registerMetric(redirects.histogram('linkforge_redirect_duration_seconds', 'Time from a redirect request reaching the responder to its answer, by status.'));
    const lookups = this.lookups;
    new Counter({
      name: 'linkforge_cache_lookups_total', help: 'Redirect lookups by tier (memory, redis, database) and result (hit, miss, error); a database hit is a code it knows.',
      labelNames: ['tier', 'result'], registers,
      collect() {
        this.reset();
        for (const tier of TIERS) for (const result of RESULTS) this.inc({ tier, result }, lookups[tier][result]);
      },
    });
    this.reaperRuns = new Counter({ name: 'linkforge_reaper_runs_total', help: 'Reaper runs this instance finished, by status.', labelNames: ['status'], registers });
    this.reaperRows = new Counter({
      name: 'linkforge_reaper_rows_total', help: 'Rows the reaper changed, by action (marked_expired, purged, archived, visits_deleted).',
      labelNames: ['action'], registers,
    });
    this.reaperDuration = new Histogram({ name: 'linkforge_reaper_run_duration_seconds', help: 'Duration of reaper runs.', buckets: REAPER_BUCKETS, registers });
    this.reaperLastSuccess = new Gauge({ name: 'linkforge_reaper_last_success_timestamp_seconds', help: 'When this instance last finished a successful reaper run (Unix seconds).', registers });
    for (const status of ['succeeded', 'failed']) this.reaperRuns.inc({ status }, 0);
    registerScrapeTimeGauges(this.registry, sources);
  }

  lookup(tier: CacheTier, result: LookupResult): void {
    this.lookups[tier][result] += 1;
  }

  requestAnswered(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.requestDuration.observe(labels, seconds);
  }

  runFinished(run: FinishedCleanupRun): void {
    this.reaperRuns.inc({ status: run.status });
    this.reaperRows.inc({ action: 'marked_expired' }, run.markedExpired);
    this.reaperRows.inc({ action: 'purged' }, run.purged);
    this.reaperRows.inc({ action: 'archived' }, run.archived);
    this.reaperRows.inc({ action: 'visits_deleted' }, run.visitsDeleted);
    this.reaperDuration.observe(run.durationMs / 1000);
    if (run.status === 'succeeded') this.reaperLastSuccess.set(run.finishedAt / 1000);
  }

  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
