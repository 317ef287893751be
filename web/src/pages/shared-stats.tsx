import { useState } from 'preact/hooks';
import type { SharedStats } from '../api.js';
import { FormError } from '../components/field.js';
import { Layout } from '../components/layout.js';
import { RangePicker } from '../components/range-picker.js';
import { Breakdowns, ClicksBody } from '../components/stats-sections.js';
import { rangeFromSearch, searchOfRange, statsQuery, type StatsRange } from '../stats-range.js';
import { useApi } from '../use-api.js';

/**
 * `/app/shared/:token`: a link's stats as its owner shared them, read-only and without signing in.
 * The answer holds nothing private (the destination comes without its query string), and reading
 * it counts as no click.
 */
export function SharedStatsPage({ token }: { token: string }) {
  const [range, setRange] = useState<StatsRange>(() => rangeFromSearch(new URLSearchParams(location.search)));
  const { data: stats, error, loading } = useApi<SharedStats>(`/api/shared/${encodeURIComponent(token)}/stats?${statsQuery(range)}`);
  const pickRange = (next: StatsRange) => {
    setRange(next);
    history.replaceState(null, '', `${location.pathname}${searchOfRange(next)}`);
  };
  return (
    <Layout title={stats ? `Clicks of ${stats.link.shortCode}` : 'Shared stats'}>
      <p class="muted" data-testid="shared-note">A read-only view of one link's clicks, shared by its owner.</p>
      <FormError message={error} />
      {stats && (
        <section class="card" aria-labelledby="about-heading">
          <h2 id="about-heading">About this link</h2>
          <dl class="facts">
            <dt>Short URL</dt><dd>{stats.link.shortUrl}</dd>
            <dt>Destination</dt><dd class="url-cell" data-testid="shared-destination">{stats.link.destination}</dd>
          </dl>
        </section>
      )}
      {(stats || !error) && (
        <section class="card" aria-labelledby="clicks-heading">
          <h2 id="clicks-heading">Clicks over time</h2>
          <RangePicker range={range} onChange={pickRange} />
          {stats ? <ClicksBody stats={stats} loading={loading} /> : <p class="loading-note">Loading clicks…</p>}
        </section>
      )}
      {stats && <Breakdowns stats={stats} loading={loading} />}
    </Layout>
  );
}
