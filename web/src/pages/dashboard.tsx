import { useState } from 'preact/hooks';
import { api, ApiError, errorText, type LinkJson, type LinkPage, type ResponseOf, type SyncOutcome, type Workspace } from '../api.js';
import { Field, FormError } from '../components/field.js';
import { Layout } from '../components/layout.js';
import { ExternalUrl } from '../components/external-url.js';
import { takeSyncOutcomes } from '../flash.js';
import { dateTime, fromLocalInput, health, latency, toLocalInput } from '../format.js';
import { Link } from '../router.js';
import { useApi } from '../use-api.js';

type Status = '' | 'ACTIVE' | 'EXPIRED' | 'DELETED';
const PAGE_SIZE = 20;

function linksQuery(query: { q: string; status: Status }, cursor: string | undefined): URLSearchParams {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (query.q) params.set('q', query.q);
  if (query.status) params.set('status', query.status);
  if (cursor) params.set('cursor', cursor);
  return params;
}

/** `/app/dashboard`: the signed-in user's links, newest first, with create, edit, delete and restore. */
export function DashboardPage() {
  const [outcomes] = useState<SyncOutcome[] | undefined>(() => takeSyncOutcomes());
  const [query, setQuery] = useState({ q: '', status: '' as Status });
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<Status>('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [notice, setNotice] = useState<string>();
  const workspaces = useApi<ResponseOf<'listWorkspaces'>>('/api/v1/workspaces').data?.workspaces ?? [];
  const links = useApi<LinkPage>(`/api/urls?${linksQuery(query, cursors[cursors.length - 1])}`);
  const page = links.data;
  const reload = (message?: string) => { setNotice(message); void links.reload(); };

  const applyFilters = (event: Event) => {
    event.preventDefault();
    setCursors([undefined]);
    setQuery({ q: search.trim(), status });
    void links.reload(); // Apply asks again even when the filters are unchanged
  };

  return (
    <Layout title="Your links">
      {outcomes && <SyncReport outcomes={outcomes} />}
      <CreateLinkForm workspaces={workspaces} onCreated={(link) => reload(`Created ${link.shortUrl}`)} />

      <section aria-labelledby="links-heading">
        <h2 id="links-heading">Links</h2>
        <form class="filters" role="search" onSubmit={applyFilters}>
          <Field id="search" label="Search code or destination" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
          <div class="field">
            <label for="status-filter">Status</label>
            <select id="status-filter" value={status} onChange={(e) => setStatus(e.currentTarget.value as Status)}>
              <option value="">All</option>
              <option value="ACTIVE">Active</option>
              <option value="EXPIRED">Expired</option>
              <option value="DELETED">Deleted</option>
            </select>
          </div>
          <button type="submit">Apply</button>
        </form>
        <p role="status" class="notice">{notice}</p>
        <FormError message={links.error} />
        {page && (page.items.length === 0 ? <p class="muted">No links match.</p> : <LinksTable links={page.items} onChanged={reload} />)}
        <nav class="pager" aria-label="Pages of links">
          <button type="button" class="secondary" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>Previous page</button>
          <span>Page {cursors.length}</span>
          <button type="button" class="secondary" disabled={!page?.nextCursor} onClick={() => page?.nextCursor && setCursors([...cursors, page.nextCursor])}>Next page</button>
        </nav>
      </section>
    </Layout>
  );
}

const OUTCOME_TEXT: Record<SyncOutcome['outcome'], string> = {
  claimed: 'moved to your account',
  created: 'recreated in your account',
  existing: 'already in your account',
  rejected: 'could not be moved',
};

function SyncReport({ outcomes }: { outcomes: SyncOutcome[] }) {
  return (
    <section class="card sync-report" aria-labelledby="sync-heading" role="status">
      <h2 id="sync-heading">Links from this browser</h2>
      <ul>
        {outcomes.map((o, i) => (
          <li key={`${o.shortCode}-${i}`} class={`outcome-${o.outcome}`}>
            {o.shortCode ? <><code>{o.shortCode}</code>: {OUTCOME_TEXT[o.outcome]}</> : OUTCOME_TEXT[o.outcome]}
            {o.reason && <> ({o.reason})</>}
          </li>
        ))}
      </ul>
    </section>
  );
}

function CreateLinkForm({ workspaces, onCreated }: { workspaces: Workspace[]; onCreated: (link: LinkJson) => void }) {
  const [url, setUrl] = useState('');
  const [customCode, setCustomCode] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [workspaceId, setWorkspaceId] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    try {
      const body = {
        url: url.trim(),
        ...(customCode.trim() && { customCode: customCode.trim() }),
        ...(expiresAt && { expiresAt: fromLocalInput(expiresAt) }),
        ...(workspaceId && { workspaceId: Number(workspaceId) }),
      };
      const link = await api<LinkJson>('POST', '/api/urls', body);
      setUrl(''); setCustomCode(''); setExpiresAt('');
      onCreated(link);
    } catch (caught) {
      const field = caught instanceof ApiError ? caught.field() : undefined;
      setErrors({ [field ?? 'form']: errorText(caught) });
    }
  };
  return (
    <details class="card create">
      <summary>Create a link</summary>
      <form onSubmit={submit} noValidate>
        <Field id="new-url" label="Destination URL" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} error={errors.url} />
        <Field id="new-code" label="Custom code (optional)" value={customCode} onInput={(e) => setCustomCode(e.currentTarget.value)} error={errors.customCode}
          hint="Letters, digits, - and _." />
        <Field id="new-expiry" label="Expires (optional)" type="datetime-local" value={expiresAt} onInput={(e) => setExpiresAt(e.currentTarget.value)} error={errors.expiresAt} />
        {workspaces.length > 1 && (
          <div class="field">
            <label for="new-workspace">Workspace</label>
            <select id="new-workspace" value={workspaceId} onChange={(e) => setWorkspaceId(e.currentTarget.value)}>
              <option value="">Personal</option>
              {workspaces.filter((w) => !w.is_personal).map((w) => <option key={w.id} value={String(w.id)}>{w.name}</option>)}
            </select>
          </div>
        )}
        <FormError message={errors.form} />
        <button type="submit">Create link</button>
      </form>
    </details>
  );
}

function LinksTable({ links, onChanged }: { links: LinkJson[]; onChanged: (message?: string) => void }) {
  const [editing, setEditing] = useState<number>();
  return (
    <div class="table-wrap" role="region" aria-labelledby="links-heading" tabIndex={0}>
      <table class="links">
        <thead>
          <tr>
            <th scope="col">Code</th><th scope="col">Destination</th><th scope="col">Status</th>
            <th scope="col">Clicks (people / all)</th><th scope="col">Avg latency</th><th scope="col">Destination health</th><th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {links.map((link) => editing === link.id
            ? <EditRow key={link.id} link={link} onDone={(message) => { setEditing(undefined); if (message) onChanged(message); }} />
            : <LinkRow key={link.id} link={link} onEdit={() => setEditing(link.id)} onChanged={onChanged} />)}
        </tbody>
      </table>
    </div>
  );
}

function LinkRow({ link, onEdit, onChanged }: { link: LinkJson; onEdit: () => void; onChanged: (message?: string) => void }) {
  const [error, setError] = useState<string>();
  const check = health(link);
  const act = async (method: 'DELETE' | 'POST', path: string, done: string) => {
    try {
      await api(method, path);
      onChanged(done);
    } catch (caught) {
      setError(errorText(caught));
    }
  };
  return (
    <tr data-code={link.shortCode}>
      <td data-label="Code"><Link href={`/app/links/${link.id}`} aria-label={`Details of ${link.shortCode}`}>{link.shortCode}</Link></td>
      <td data-label="Destination" class="url-cell"><ExternalUrl url={link.originalUrl} /></td>
      <td data-label="Status"><span class={`badge status-${link.status.toLowerCase()}`}>{link.status}</span>{link.expiresAt && <div class="muted small">until {dateTime(link.expiresAt)}</div>}</td>
      <td data-label="Clicks (people / all)">{link.humanCount} / {link.redirectCount}</td>
      <td data-label="Avg latency">{latency(link.avgRedirectMs)}</td>
      <td data-label="Destination health"><span class={`health health-${check.tone}`}>{check.text}</span></td>
      <td data-label="Actions" class="actions">
        {link.status === 'DELETED'
          ? <button type="button" class="secondary" onClick={() => act('POST', `/api/urls/${link.id}/restore`, `Restored ${link.shortCode}`)} aria-label={`Restore ${link.shortCode}`}>Restore</button>
          : <>
              <button type="button" class="secondary" onClick={onEdit} aria-label={`Edit ${link.shortCode}`}>Edit</button>
              <button type="button" class="danger" onClick={() => act('DELETE', `/api/urls/${link.id}`, `Deleted ${link.shortCode}`)} aria-label={`Delete ${link.shortCode}`}>Delete</button>
            </>}
        {error && <p class="field-error" role="alert">{error}</p>}
      </td>
    </tr>
  );
}

function EditRow({ link, onDone }: { link: LinkJson; onDone: (message?: string) => void }) {
  const [url, setUrl] = useState(link.originalUrl);
  const [expiresAt, setExpiresAt] = useState(toLocalInput(link.expiresAt));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = async (event: Event) => {
    event.preventDefault();
    try {
      await api('PATCH', `/api/urls/${link.id}`, { url: url.trim(), expiresAt: fromLocalInput(expiresAt) });
      onDone(`Saved ${link.shortCode}`);
    } catch (caught) {
      const field = caught instanceof ApiError ? caught.field() : undefined;
      setErrors({ [field ?? 'form']: errorText(caught) });
    }
  };
  const id = `edit-${link.id}`;
  return (
    <tr data-code={link.shortCode}>
      <td>{link.shortCode}</td>
      <td colSpan={6}>
        <form onSubmit={save} class="edit" noValidate aria-label={`Edit ${link.shortCode}`}>
          <Field id={`${id}-url`} label="Destination URL" type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} error={errors.url} />
          <Field id={`${id}-expiry`} label="Expires (empty: never)" type="datetime-local" value={expiresAt} onInput={(e) => setExpiresAt(e.currentTarget.value)} error={errors.expiresAt} />
          <FormError message={errors.form} />
          <button type="submit">Save</button>
          <button type="button" class="secondary" onClick={() => onDone()}>Cancel</button>
        </form>
      </td>
    </tr>
  );
}
