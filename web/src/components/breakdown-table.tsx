import type { TopValue } from '../api.js';
import { count, share } from '../format.js';
import './breakdown-table.css';

/** The stats API's name for the clicks of values past the ones a link keeps each day. */
const FOLDED_VALUE = '(other)';

/**
 * One breakdown (referrers, browsers, …): each value's clicks by people, bots and previews, and its
 * share of all clicks, as a percentage and a bar. The breakdowns count whole UTC days, so over a
 * short range they can hold more clicks than the range's total: the share is of the larger.
 */
export function BreakdownTable({ title, rows, empty, total }: { title: string; rows: TopValue[]; empty: string; total: number }) {
  const whole = Math.max(total, rows.reduce((sum, row) => sum + row.clicks.total, 0));
  return (
    <div class="card" role="region" aria-label={title} tabIndex={0}>
      <table class="breakdown">
        <caption>{title}</caption>
        <thead><tr><th scope="col">{title.replace(/ies$/, 'y').replace(/s$/, '')}</th><th scope="col">People</th><th scope="col">Bots</th><th scope="col">Previews</th><th scope="col">All</th><th scope="col">Share</th></tr></thead>
        <tbody>
          {rows.length === 0
            ? <tr><td colSpan={6} class="muted empty">No clicks in this range</td></tr>
            : rows.map((row) => (
              <tr key={row.value ?? ''}>
                <th scope="row">{row.value === FOLDED_VALUE ? <span title="The values past the ones a link keeps each day, together">All others</span> : row.value ?? empty}</th>
                <td data-label="People">{count(row.clicks.human)}</td><td data-label="Bots">{count(row.clicks.bot)}</td>
                <td data-label="Previews">{count(row.clicks.preview)}</td><td data-label="All">{count(row.clicks.total)}</td>
                <td class="share">
                  <span>{share(row.clicks.total, whole)}</span>
                  {/* Width through the CSSOM (allowed by the style-src policy, unlike a style attribute in markup). */}
                  <span class="bar" aria-hidden="true"><span style={{ width: `${whole > 0 ? (100 * row.clicks.total) / whole : 0}%` }} /></span>
                </td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}
