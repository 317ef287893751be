import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, errorText, type ResponseOf } from '../api.js';
import { FormError } from '../components/field.js';
import { Layout } from '../components/layout.js';
import { NotFoundPage } from '../components/not-found.js';
import { useSession } from '../session.js';
import { useApi } from '../use-api.js';
import { AdminBlocklist, AdminReaper } from './admin-instance.js';
import { AdminLinkLookup } from './admin-links.js';
import { AdminUsers } from './admin-users.js';
import './admin.css';

type Access = 'checking' | 'granted' | 'denied' | { error: string };

/**
 * `/app/admin`, the service operator's page. Whether it exists is the API's answer: the operator's
 * routes answer 404 to anyone but a site admin, and so does this page (signed out too).
 */
export function AdminPage() {
  const session = useSession();
  // Who is signed in, or whether it is not known yet: the check runs again when it changes.
  const who = session.status === 'signed-in' ? session.session.userId : session.status;
  const [access, setAccess] = useState<Access>('checking');
  useEffect(() => {
    if (who === 'loading') { setAccess('checking'); return; }
    if (who === 'signed-out') { setAccess('denied'); return; }
    const call = new AbortController();
    api('GET', '/api/admin/overview', undefined, call.signal).then(
      () => setAccess('granted'),
      (error: unknown) => {
        if (call.signal.aborted) return;
        setAccess(error instanceof ApiError && error.problem.status === 404 ? 'denied' : { error: errorText(error) });
      },
    );
    return () => call.abort();
  }, [who]);

  if (access === 'denied') return <NotFoundPage />;
  if (access === 'checking') return <Layout title="Loading…"><p class="muted" aria-busy="true">Loading…</p></Layout>;
  if (typeof access === 'object') return <Layout title="Admin"><FormError message={access.error} /></Layout>;
  return (
    <Layout title="Admin">
      <nav aria-label="Sections of this page" class="admin-toc">
        <ul>
          <li><a href="#admin-overview">Overview</a></li>
          <li><a href="#admin-link">Find a link</a></li>
          <li><a href="#admin-users">Users</a></li>
          <li><a href="#admin-reaper">Cleanup</a></li>
          <li><a href="#admin-blocklist">Blocklist</a></li>
        </ul>
      </nav>
      <AdminOverview />
      <AdminLinkLookup />
      <AdminUsers />
      <AdminReaper />
      <AdminBlocklist />
    </Layout>
  );
}

const number = (n: number) => n.toLocaleString();

function AdminOverview() {
  const { data, error } = useApi<ResponseOf<'getAdminOverview'>>('/api/admin/overview');
  const tiles: Array<[string, string, string?]> = data ? [
    ['Users', number(data.users.total), `${number(data.users.admins)} admin, ${number(data.users.disabled)} disabled`],
    ['Workspaces', number(data.workspaces)],
    ['API keys', number(data.apiKeys)],
    ['Live links', number(data.links.active)],
    ['Expired links', number(data.links.expired)],
    ['Deleted links', number(data.links.deleted)],
    ['Disabled links', number(data.links.disabled)],
    ['Anonymous / owned', `${number(data.links.temporary)} / ${number(data.links.permanent)}`],
    ['Redirects', number(data.traffic.totalRedirects),
      `${number(data.traffic.redirectsByClass.human)} people, ${number(data.traffic.redirectsByClass.bot)} bots, ${number(data.traffic.redirectsByClass.preview)} previews`],
    ['Mean redirect latency', `${data.traffic.avgLatencyMs.toFixed(2)} ms`],
  ] : [];
  return (
    <section id="admin-overview" aria-labelledby="admin-overview-heading" aria-busy={!data && !error}>
      <h2 id="admin-overview-heading">Overview</h2>
      <FormError message={error} />
      <dl class="admin-tiles">
        {tiles.map(([label, value, detail]) => (
          <div key={label} class="card"><dt>{label}</dt><dd>{value}{detail && <span class="admin-tile-detail">{detail}</span>}</dd></div>
        ))}
      </dl>
    </section>
  );
}
