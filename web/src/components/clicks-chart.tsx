import { useEffect, useRef, useState } from 'preact/hooks';
import type { LinkStats } from '../api.js';
import { bucketFormat, count } from '../format.js';

/** Follows the system's light or dark theme, so the chart is drawn again in the other's colours. */
function usePrefersDark(): boolean {
  const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
  const [dark, setDark] = useState(query?.matches ?? false);
  useEffect(() => {
    const update = () => setDark(query?.matches ?? false);
    query?.addEventListener('change', update);
    return () => query?.removeEventListener('change', update);
  }, []);
  return dark;
}

/**
 * Clicks over time, one line per visitor class, drawn on a canvas by uPlot (loaded when first
 * needed: clicks-plot.ts). The canvas is an image to assistive technology; the same numbers are in
 * the table under it, which is visually hidden and is what a screen reader reads.
 */
export function ClicksChart({ stats }: { stats: Omit<LinkStats, 'linkId'> }) {
  const box = useRef<HTMLDivElement>(null);
  const dark = usePrefersDark();
  useEffect(() => {
    let destroy: (() => void) | undefined;
    let current = true;
    void import('./clicks-plot.js').then(({ drawClicksPlot }) => {
      if (current && box.current) destroy = drawClicksPlot(box.current, stats);
    });
    return () => { current = false; destroy?.(); };
  }, [stats, dark]);
  const per = stats.interval === 'hour' ? 'hour' : 'day';
  return (
    <>
      <div ref={box} class="chart" role="img" data-testid="clicks-chart" data-points={stats.series.length}
        aria-label={`Clicks per ${per}: ${stats.totals.total} in total, ${stats.totals.human} by people, ${stats.totals.uniqueVisitors} unique visitors; the table below has every ${per}.`} />
      <ClicksTable stats={stats} />
    </>
  );
}

function ClicksTable({ stats }: { stats: Omit<LinkStats, 'linkId'> }) {
  const label = bucketFormat(stats.interval);
  return (
    // Hidden by its wrapper: a table's width grows to its content whatever the CSS says.
    <div class="visually-hidden"><table data-testid="clicks-table">
      <caption>Clicks per {stats.interval}{stats.interval === 'day' ? ' (UTC days)' : ''}</caption>
      <thead><tr><th scope="col">{stats.interval === 'hour' ? 'Hour' : 'Day'}</th><th scope="col">People</th><th scope="col">Unique visitors</th><th scope="col">Bots</th><th scope="col">Previews</th><th scope="col">All</th></tr></thead>
      <tbody>
        {stats.series.map((bucket) => (
          <tr key={bucket.start}>
            <th scope="row"><time dateTime={bucket.start}>{label(Date.parse(bucket.start))}</time></th>
            <td>{count(bucket.clicks.human)}</td><td>{count(bucket.uniqueVisitors)}</td><td>{count(bucket.clicks.bot)}</td><td>{count(bucket.clicks.preview)}</td><td>{count(bucket.clicks.total)}</td>
          </tr>
        ))}
      </tbody>
    </table></div>
  );
}
