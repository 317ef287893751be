import { useState } from 'preact/hooks';
import { api, errorText, type ResponseOf } from '../api.js';
import { Field, FormError } from '../components/field.js';
import { dateTime } from '../format.js';
import { currentSession } from '../session.js';
import { useApi } from '../use-api.js';

type AdminUser = ResponseOf<'listAdminUsers'>['items'][number];

/** Every user, newest first, searched by email; disabling one ends their sign-ins, tokens and keys at once. */
export function AdminUsers() {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const params = new URLSearchParams({ limit: '20' });
  if (query) params.set('q', query);
  if (cursor) params.set('cursor', cursor);
  const listed = useApi<ResponseOf<'listAdminUsers'>>(`/api/admin/users?${params}`);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState('');
  const me = currentSession()?.email;

  const submit = (event: Event) => { event.preventDefault(); setCursors([]); setQuery(search.trim()); };
  const toggle = async (user: AdminUser) => {
    const action = user.disabledAt === null ? 'disable' : 'enable';
    try {
      await api('POST', `/api/admin/users/${user.id}/${action}`);
      setError(undefined);
      setNotice(`${user.email} is ${action}d.`);
      await listed.reload();
    } catch (caught) {
      setNotice('');
      setError(errorText(caught));
    }
  };

  const users = listed.data?.items ?? [];
  return (
    <section id="admin-users" aria-labelledby="admin-users-heading">
      <h2 id="admin-users-heading">Users</h2>
      <form class="inline-form card" role="search" onSubmit={submit} noValidate>
        <Field id="user-search" label="Search by email" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        <button type="submit" class="secondary">Search</button>
      </form>
      <FormError message={error ?? listed.error} />
      <p class="notice" role="status">{notice}</p>
      <div class="table-wrap" aria-busy={!listed.data && !listed.error}>
        <table class="admin-table">
          <caption>{query ? `Users whose email contains “${query}”` : 'Every user'}, newest first</caption>
          <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Registered</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id}>
                <td data-label="Email" class="url-cell">{user.email}</td>
                <td data-label="Role">{user.role}</td>
                <td data-label="Registered">{dateTime(user.createdAt)}</td>
                <td data-label="Status">{user.disabledAt === null ? 'active' : <span class="badge status-disabled">disabled {dateTime(user.disabledAt)}</span>}</td>
                <td class="actions">
                  {user.email === me ? <span class="muted small">you</span> : (
                    <button type="button" class={user.disabledAt === null ? 'danger' : 'secondary'} onClick={() => toggle(user)} aria-label={`${user.disabledAt === null ? 'Disable' : 'Enable'} ${user.email}`}>
                      {user.disabledAt === null ? 'Disable' : 'Enable'}
                    </button>
                  )}
                </td>
              </tr>
            ))}
            {listed.data && users.length === 0 && <tr><td colSpan={5} class="muted">No user matches.</td></tr>}
          </tbody>
        </table>
      </div>
      <div class="pager">
        {cursors.length > 0 && <button type="button" class="secondary" onClick={() => setCursors(cursors.slice(0, -1))}>Previous page</button>}
        {listed.data?.nextCursor && <button type="button" class="secondary" onClick={() => setCursors([...cursors, listed.data!.nextCursor!])}>Next page</button>}
      </div>
    </section>
  );
}
