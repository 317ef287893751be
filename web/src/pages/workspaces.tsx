import { useState } from 'preact/hooks';
import { api, ApiError, errorText, type Member, type ResponseOf, type Workspace } from '../api.js';
import { API_LIMITS } from '../api-limits.js';
import { Field, FormError } from '../components/field.js';
import { Layout } from '../components/layout.js';
import { ApiKeys } from './api-keys.js';
import { WorkspaceTags } from './workspace-tags.js';
import { WorkspaceWebhooks } from './workspace-webhooks.js';
import { WorkspaceDomains } from './workspace-domains.js';
import { useApi } from '../use-api.js';

/** `/app/workspaces`: create workspaces, manage their members, tags, API keys and webhooks. */
export function WorkspacesPage() {
  const listed = useApi<ResponseOf<'listWorkspaces'>>('/api/v1/workspaces');
  const workspaces = listed.data?.workspaces ?? [];
  const [selected, setSelected] = useState<number>();
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ name?: string; form?: string }>({});

  const create = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) { setErrors({ name: 'Give the workspace a name.' }); return; }
    try {
      const workspace = await api<Workspace>('POST', '/api/v1/workspaces', { name: name.trim() });
      setName(''); setErrors({});
      await listed.reload();
      setSelected(workspace.id);
    } catch (caught) {
      setErrors({ name: errorText(caught) });
    }
  };
  const current = workspaces.find((w) => w.id === selected);

  return (
    <Layout title="Workspaces">
      <FormError message={errors.form ?? listed.error} />
      <form onSubmit={create} class="card inline-form" noValidate>
        <Field id="workspace-name" label="New workspace name" maxLength={API_LIMITS.workspaceNameMaxLength} value={name} onInput={(e) => setName(e.currentTarget.value)} error={errors.name} />
        <button type="submit">Create workspace</button>
      </form>
      <section aria-labelledby="ws-list-heading">
        <h2 id="ws-list-heading">Your workspaces</h2>
        <ul class="workspaces">
          {workspaces.map((w) => (
            <li key={w.id}>
              <button type="button" class={w.id === selected ? '' : 'secondary'} aria-pressed={w.id === selected} onClick={() => setSelected(w.id)}>
                <span class="ws-name">{w.name}</span>
              </button>
              <span class="muted"> {w.is_personal ? 'personal, ' : ''}you are {w.role}</span>
            </li>
          ))}
        </ul>
      </section>
      {current && <WorkspaceDetail key={current.id} workspace={current} />}
    </Layout>
  );
}

function WorkspaceDetail({ workspace }: { workspace: Workspace }) {
  const canManage = workspace.role === 'owner' || workspace.role === 'admin';
  return (
    <section class="workspace-detail" aria-labelledby="ws-heading">
      <h2 id="ws-heading">{workspace.name}</h2>
      <Members workspace={workspace} canManage={canManage} />
      <WorkspaceTags workspace={workspace} canManage={canManage} />
      {canManage && <WorkspaceDomains workspace={workspace} />}
      {canManage && <ApiKeys workspace={workspace} />}
      {canManage && <WorkspaceWebhooks workspace={workspace} />}
    </section>
  );
}

function Members({ workspace, canManage }: { workspace: Workspace; canManage: boolean }) {
  const base = `/api/v1/workspaces/${workspace.id}/members`;
  const listed = useApi<ResponseOf<'listMembers'>>(base);
  const members = listed.data?.members ?? [];
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'member' | 'admin'>('member');
  const [errors, setErrors] = useState<{ email?: string; form?: string }>({});

  const add = async (event: Event) => {
    event.preventDefault();
    try {
      await api('POST', base, { email: email.trim(), role });
      setEmail(''); setErrors({});
      await listed.reload();
    } catch (caught) {
      setErrors(caught instanceof ApiError && caught.field() === 'email' ? { email: errorText(caught) } : { form: errorText(caught) });
    }
  };
  const remove = async (member: Member) => {
    try { await api('DELETE', `${base}/${member.user_id}`); await listed.reload(); } catch (caught) { setErrors({ form: errorText(caught) }); }
  };

  return (
    <div class="card">
      <h3>Members</h3>
      <FormError message={errors.form ?? listed.error} />
      <ul class="members">
        {members.map((m) => (
          <li key={m.user_id}>
            <span class="member-email">{m.email}</span> <span class="badge">{m.role}</span>
            {canManage && m.role !== 'owner' && <button type="button" class="secondary" onClick={() => remove(m)} aria-label={`Remove ${m.email}`}>Remove</button>}
          </li>
        ))}
      </ul>
      {canManage && !workspace.is_personal && (
        <form onSubmit={add} class="inline-form" noValidate>
          <Field id="member-email" label="Add a registered user by email" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} error={errors.email} />
          <div class="field">
            <label for="member-role">Role</label>
            <select id="member-role" value={role} onChange={(e) => setRole(e.currentTarget.value as 'member' | 'admin')}>
              <option value="member">member</option>
              <option value="admin">admin</option>
            </select>
          </div>
          <button type="submit">Add member</button>
        </form>
      )}
    </div>
  );
}
