import { useState } from 'preact/hooks';
import { api, errorText, type LinkJson, type LinkStats, type TopValue } from '../api.js';
import { ClicksChart } from '../components/clicks-chart.js';
import { CopyButton } from '../components/copy-button.js';
import { ExternalUrl } from '../components/external-url.js';
import { FormError } from '../components/field.js';
import { Layout } from '../components/layout.js';
import { QrCode } from '../components/qr-code.js';
import { dateTime, health, latency } from '../format.js';
import { Link } from '../router.js';
import { useApi } from '../use-api.js';

/** `/app/links/:id`: one link, its clicks over time, the breakdowns and its QR code. */
export function LinkPage({ id }: { id: string }) {
  const [interval, setInterval] = useState<'day' | 'hour'>('day');
  const [actionError, setActionError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const linkPath = `/api/urls/${encodeURIComponent(id)}`;
  const { data: link, error: linkError, reload } = useApi<LinkJson>(linkPath);
  const { data: stats, error: statsError } = useApi<LinkStats>(`${linkPath}/stats?interval=${interval}`);
  const error = actionError ?? linkError ?? statsError;

  const act = async (method: 'DELETE' | 'POST', path: string, done: string) => {
    try {
      await api(method, path);
      await reload();
      setNotice(done);
      setActionError(undefined);
    } catch (caught) {
      setActionError(errorText(caught));
    }
  };

  return (
    <Layout title={link ? `Link ${link.shortCode}` : 'Link'}>
      <p><Link href="/app/dashboard">← All links</Link></p>
      <FormError message={error} />
      <p role="status" class="notice">{notice}</p>
      {link && (
        <div class="link-detail">
          <section class="card" aria-labelledby="about-heading">
            <h2 id="about-heading">About this link</h2>
            <dl class="facts">
              <dt>Short URL</dt><dd><a href={link.shortUrl}>{link.shortUrl}</a> <CopyButton text={link.shortUrl} label="Copy link" /></dd>
              <dt>Destination</dt><dd class="url-cell"><ExternalUrl url={link.originalUrl} /></dd>
              <dt>Status</dt><dd><span class={`badge status-${link.status.toLowerCase()}`} data-testid="link-status">{link.status}</span></dd>
              <dt>Created</dt><dd>{dateTime(link.createdAt)}</dd>
              <dt>Expires</dt><dd>{link.expiresAt ? dateTime(link.expiresAt) : 'Never'}</dd>
              <dt>Clicks</dt><dd>{link.humanCount} by people, {link.redirectCount} in all</dd>
              <dt>Average latency</dt><dd>{latency(link.avgRedirectMs)}</dd>
              <dt>Destination health</dt><dd>{health(link).text}{link.lastCheckedAt && <span class="muted"> (checked {dateTime(link.lastCheckedAt)})</span>}</dd>
            </dl>
            <p class="actions">
              {link.status === 'DELETED'
                ? <button type="button" onClick={() => act('POST', `/api/urls/${link.id}/restore`, 'Link restored.')}>Restore link</button>
                : <button type="button" class="danger" onClick={() => act('DELETE', `/api/urls/${link.id}`, 'Link deleted. You can restore it until it is purged.')}>Delete link</button>}
            </p>
          </section>
          <section class="card" aria-labelledby="qr-heading">
            <h2 id="qr-heading">QR code</h2>
            <QrCode url={link.shortUrl} code={link.shortCode} />
          </section>
        </div>
      )}
      {stats && (
        <>
          <section class="card" aria-labelledby="clicks-heading">
            <h2 id="clicks-heading">Clicks over time</h2>
            <div class="field inline">
              <label for="interval">Per</label>
              <select id="interval" value={interval} onChange={(e) => setInterval(e.currentTarget.value as 'day' | 'hour')}>
                <option value="day">day</option>
                <option value="hour">hour</option>
              </select>
            </div>
            <p data-testid="click-totals">{stats.totals.total} clicks: {stats.totals.human} people, {stats.totals.bot} bots, {stats.totals.preview} link previews</p>
            <ClicksChart stats={stats} />
          </section>
          <section aria-labelledby="breakdowns-heading">
            <h2 id="breakdowns-heading">Where the clicks came from</h2>
            <div class="breakdowns">
              <Breakdown title="Referrers" rows={stats.breakdowns.referrers} empty="Direct" />
              <Breakdown title="Browsers" rows={stats.breakdowns.browsers} empty="Unknown" />
              <Breakdown title="Operating systems" rows={stats.breakdowns.oses} empty="Unknown" />
              <Breakdown title="Devices" rows={stats.breakdowns.devices} empty="Unknown" />
            </div>
          </section>
        </>
      )}
    </Layout>
  );
}

/** The stats API's name for the clicks of values past the ones a link keeps each day. */
const FOLDED_VALUE = '(other)';

function Breakdown({ title, rows, empty }: { title: string; rows: TopValue[]; empty: string }) {
  return (
    <div class="card" role="region" aria-label={title} tabIndex={0}>
      <table class="breakdown">
        <caption>{title}</caption>
        <thead><tr><th scope="col">{title.replace(/s$/, '')}</th><th scope="col">People</th><th scope="col">Bots</th><th scope="col">Previews</th><th scope="col">All</th></tr></thead>
        <tbody>
          {rows.length === 0
            ? <tr><td colSpan={5} class="muted">No clicks yet</td></tr>
            : rows.map((row) => (
              <tr key={row.value ?? ''}>
                <th scope="row">{row.value === FOLDED_VALUE ? <span title="The values past the ones a link keeps each day, together">All others</span> : row.value ?? empty}</th>
                <td>{row.clicks.human}</td><td>{row.clicks.bot}</td><td>{row.clicks.preview}</td><td>{row.clicks.total}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}
