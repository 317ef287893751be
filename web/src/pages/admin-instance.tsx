import { useState } from 'preact/hooks';
import { api, errorText, type ResponseOf } from '../api.js';
import { Field, FormError } from '../components/field.js';
import { dateTime } from '../format.js';
import { useApi } from '../use-api.js';

type Run = ResponseOf<'listCleanupRuns'>['items'][number];
type RunNow = ResponseOf<'runCleanup'>;

/** The cleanup job (the reaper): its totals, its recent runs on every instance, and a run now. */
export function AdminReaper() {
  const stats = useApi<ResponseOf<'getCleanupStats'>>('/api/admin/cleanup/stats');
  const runs = useApi<ResponseOf<'listCleanupRuns'>>('/api/admin/cleanup/runs?limit=10');
  const [notice, setNotice] = useState('');
  const [error, setError] = useState<string>();
  const [running, setRunning] = useState(false);

  const runNow = async () => {
    setRunning(true); setNotice(''); setError(undefined);
    try {
      const run = await api<RunNow>('POST', '/api/admin/cleanup/run');
      setNotice(run.status === 'succeeded'
        ? `Cleanup finished: ${run.marked_expired} marked expired, ${run.purged} purged, ${run.archived} archived.`
        : `Cleanup failed: ${run.error ?? 'no reason given'}.`);
      await Promise.all([stats.reload(), runs.reload()]);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setRunning(false);
    }
  };

  const s = stats.data;
  return (
    <section id="admin-reaper" aria-labelledby="admin-reaper-heading">
      <h2 id="admin-reaper-heading">Cleanup</h2>
      <FormError message={error ?? stats.error ?? runs.error} />
      {s && (
        <dl class="facts card">
          <dt>Last run ended</dt><dd>{dateTime(s.last_cleanup_time)}{s.is_running ? ' (a run is in progress)' : ''}</dd>
          <dt>Runs</dt><dd>{s.successful_runs} succeeded, {s.failed_runs} failed; {s.average_cleanup_ms.toFixed(0)} ms on average</dd>
          <dt>Links</dt><dd>{s.total_marked_expired} marked expired, {s.total_cleaned} purged, {s.total_archived} archived</dd>
          <dt>Old visits deleted</dt><dd>{s.total_visits_deleted}</dd>
        </dl>
      )}
      <p class="admin-row">
        <button type="button" onClick={runNow} disabled={running} aria-busy={running}>{running ? 'Running…' : 'Run cleanup now'}</button>
        <span class="notice" role="status">{notice}</span>
      </p>
      <div class="table-wrap" aria-busy={!runs.data && !runs.error}>
        <table class="admin-table">
          <caption>Recent runs, newest first</caption>
          <thead><tr><th scope="col">Started</th><th scope="col">Status</th><th scope="col">Took</th><th scope="col">Expired / purged / archived</th><th scope="col">Instance</th></tr></thead>
          <tbody>
            {(runs.data?.items ?? []).map((run: Run) => (
              <tr key={run.id}>
                <td data-label="Started">{dateTime(run.started_at)}</td>
                <td data-label="Status"><span class={`badge run-${run.status}`}>{run.status}</span>{run.error && <span class="small"> {run.error}</span>}</td>
                <td data-label="Took">{run.duration_ms === null ? '—' : `${run.duration_ms} ms`}</td>
                <td data-label="Expired / purged / archived">{run.marked_expired} / {run.purged} / {run.archived}</td>
                <td data-label="Instance"><code>{run.instance}</code></td>
              </tr>
            ))}
            {runs.data?.items.length === 0 && <tr><td colSpan={5} class="muted">No run yet.</td></tr>}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The destination domains this instance refuses (BLOCKLIST_FILE, as loaded at start), searched. */
export function AdminBlocklist() {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const { data, error } = useApi<ResponseOf<'getBlocklist'>>(`/api/admin/blocklist?limit=100${query ? `&q=${encodeURIComponent(query)}` : ''}`);
  const submit = (event: Event) => { event.preventDefault(); setQuery(search.trim()); };
  return (
    <section id="admin-blocklist" aria-labelledby="admin-blocklist-heading" aria-busy={!data && !error}>
      <h2 id="admin-blocklist-heading">Blocklist</h2>
      <FormError message={error} />
      {data && (data.file === null
        ? <p class="muted">No blocklist is configured (set <code>BLOCKLIST_FILE</code>); only private addresses and this service's own domain are refused.</p>
        : <p><strong>{data.total}</strong> domains (and their subdomains) are refused, from <code>{data.file}</code>.</p>)}
      {data && data.total > 0 && (
        <>
          <form class="inline-form" role="search" onSubmit={submit} noValidate>
            <Field id="blocklist-search" label="Search the blocklist" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
            <button type="submit" class="secondary">Search</button>
          </form>
          <p class="muted small" role="status">{data.matching === data.domains.length ? `${data.matching} shown` : `First ${data.domains.length} of ${data.matching} shown`}</p>
          <ul class="admin-domains">{data.domains.map((domain) => <li key={domain}><code>{domain}</code></li>)}</ul>
        </>
      )}
    </section>
  );
}
