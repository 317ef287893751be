import { useState } from 'preact/hooks';
import { api, errorText, type LinkStats, type ResponseOf } from '../api.js';
import { CopyButton } from '../components/copy-button.js';
import { ExternalUrl } from '../components/external-url.js';
import { FormError } from '../components/field.js';
import { Layout } from '../components/layout.js';
import { QrCode } from '../components/qr-code.js';
import { PreviewCard } from '../components/preview-fields.js';
import { RangePicker } from '../components/range-picker.js';
import { ShareControl } from '../components/share-control.js';
import { Breakdowns, ClicksBody } from '../components/stats-sections.js';
import { hasLinkOptions, redirectStatusText } from '../redirect-status.js';
import { clicksLeftText } from '../components/click-limit-fields.js';
import { RoutingSummary } from '../components/routing-fields.js';
import { gateText } from '../components/password-field.js';
import { count, dateTime, health, latency } from '../format.js';
import { Link } from '../router.js';
import { csvQuery, rangeFromSearch, searchOfRange, statsQuery, type StatsRange } from '../stats-range.js';
import { useApi } from '../use-api.js';

/** `/app/links/:id`: one link, its clicks over time, the breakdowns and its QR code. */
export function LinkPage({ id }: { id: string }) {
  const [range, setRange] = useState<StatsRange>(() => rangeFromSearch(new URLSearchParams(location.search)));
  const [actionError, setActionError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const linkPath = `/api/urls/${encodeURIComponent(id)}`;
  const { data: link, error: linkError, reload } = useApi<ResponseOf<'getLink'>>(linkPath);
  const { data: stats, error: statsError, loading: statsLoading } = useApi<LinkStats>(`${linkPath}/stats?${statsQuery(range)}`);
  const error = actionError ?? linkError ?? statsError;
  const pickRange = (next: StatsRange) => {
    setRange(next);
    // In place, not navigate(): the page stays, focus stays on the picker; reload and sharing keep the range.
    history.replaceState(null, '', `${location.pathname}${searchOfRange(next)}`);
  };

  const act = async (method: 'DELETE' | 'POST', path: string, done: string) => {
    try {
      await api(method, path);
      await reload();
      setNotice(done);
      setActionError(undefined);
    } catch (caught) {
      // The error replaces an earlier success notice: both at once would contradict each other.
      setNotice(undefined);
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
              <dt>Redirect</dt><dd data-testid="redirect-status">{redirectStatusText(link.redirectStatus, link.expiresAt !== null, hasLinkOptions(link))}</dd>
              {(link.routes.length > 0 || link.variants.length > 0) && <><dt>Routing</dt><dd><RoutingSummary link={link} /></dd></>}
              <dt>Before the redirect</dt><dd data-testid="link-gate">{gateText(link)}</dd>
              <dt>Clicks</dt><dd>{count(link.humanCount)} by people, {count(link.redirectCount)} in all</dd>
              {clicksLeftText(link) && <><dt>Click limit</dt><dd data-testid="clicks-left">{clicksLeftText(link)}</dd></>}
              {link.fallbackUrl && <><dt>Fallback URL</dt><dd><ExternalUrl url={link.fallbackUrl} /></dd></>}
              <dt>Average latency</dt><dd>{latency(link.avgRedirectMs)}</dd>
              <dt>Destination health</dt><dd>{health(link).text}{link.lastCheckedAt && <span class="muted"> (checked {dateTime(link.lastCheckedAt)})</span>}</dd>
              <dt>Link preview</dt><dd>{link.preview ? <PreviewCard preview={link.preview} /> : <span class="muted">None: apps show the destination's own</span>}</dd>
            </dl>
            {link.permissions.delete ? (
              <p class="actions">
                {link.status === 'DELETED'
                  ? <button type="button" onClick={() => act('POST', `/api/urls/${link.id}/restore`, 'Link restored.')}>Restore link</button>
                  : <button type="button" class="danger" onClick={() => act('DELETE', `/api/urls/${link.id}`, 'Link deleted. You can restore it until it is purged.')}>Delete link</button>}
              </p>
            ) : <p class="muted" data-testid="view-only">View only: only the link's creator or a workspace admin can delete or restore it.</p>}
          </section>
          <section class="card" aria-labelledby="qr-heading">
            <h2 id="qr-heading">QR code</h2>
            <QrCode url={link.shortUrl} code={link.shortCode} />
          </section>
        </div>
      )}
      {link && <ShareControl linkId={link.id} />}
      <section class="card" aria-labelledby="clicks-heading">
        <h2 id="clicks-heading">Clicks over time</h2>
        <RangePicker range={range} onChange={pickRange} />
        <p class="export-visits">
          <a class="button secondary" href={`${linkPath}/visits.csv?${csvQuery(range)}`} download data-testid="export-csv">Export visits as CSV</a>
          <span class="hint">Every visit of this range: time, class, country, referrer, browser, OS, device, route or variant. No addresses.</span>
        </p>
        {stats ? <ClicksBody stats={stats} loading={statsLoading} /> : !statsError && <p class="loading-note">Loading clicks…</p>}
      </section>
      {stats && <Breakdowns stats={stats} loading={statsLoading} />}
    </Layout>
  );
}

