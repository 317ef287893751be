import { useState } from 'preact/hooks';
import { api, errorText, type ApiKey, type CreatedApiKey, type ResponseOf, type Workspace } from '../api.js';
import { API_LIMITS } from '../api-limits.js';
import { CopyButton } from '../components/copy-button.js';
import { Field, FormError } from '../components/field.js';
import { dateTime } from '../format.js';
import { useApi } from '../use-api.js';

type Scope = ApiKey['scopes'][number];

/** The scopes a key can hold, with what each lets it do (ADR 0032). */
const SCOPES: ReadonlyArray<{ scope: Scope; does: string }> = [
  { scope: 'links:read', does: 'read links and tags' },
  { scope: 'links:write', does: 'create, change, delete and import links and tags' },
  { scope: 'stats:read', does: 'read stats and visit exports' },
  { scope: 'workspace:admin', does: 'list members and keys; list, pause and delete webhooks' },
];
const DAY_MS = 86_400_000;
const EXPIRIES: ReadonlyArray<{ label: string; days: number | null }> = [
  { label: 'Never', days: null }, { label: 'In 7 days', days: 7 }, { label: 'In 30 days', days: 30 }, { label: 'In 90 days', days: 90 }, { label: 'In a year', days: 365 },
];

/** A workspace's API keys: each with its scopes, expiry and last use; a form to make one with chosen scopes and expiry. */
export function ApiKeys({ workspace }: { workspace: Workspace }) {
  const base = `/api/v1/workspaces/${workspace.id}/api-keys`;
  const listed = useApi<ResponseOf<'listApiKeys'>>(base);
  const keys = listed.data?.api_keys ?? [];
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<Scope>>(new Set(SCOPES.map((s) => s.scope)));
  const [expiryDays, setExpiryDays] = useState<number | null>(null);
  const [secret, setSecret] = useState<{ name: string; key: string }>();
  const [errors, setErrors] = useState<{ name?: string; scopes?: string; form?: string }>({});

  const toggle = (scope: Scope, on: boolean) => {
    const next = new Set(scopes);
    if (on) next.add(scope); else next.delete(scope);
    setScopes(next);
  };
  const create = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) { setErrors({ name: 'Give the key a name.' }); return; }
    if (scopes.size === 0) { setErrors({ scopes: 'Tick at least one scope.' }); return; }
    try {
      const expires = expiryDays === null ? null : new Date(Date.now() + expiryDays * DAY_MS).toISOString();
      const body = { name: name.trim(), scopes: SCOPES.map((s) => s.scope).filter((s) => scopes.has(s)), expires_at: expires };
      const created = await api<CreatedApiKey>('POST', base, body);
      setSecret({ name: created.name, key: created.key });
      setName(''); setErrors({});
      await listed.reload();
    } catch (caught) {
      setErrors({ name: errorText(caught) });
    }
  };
  const revoke = async (key: ApiKey) => {
    try { await api('DELETE', `${base}/${key.id}`); await listed.reload(); } catch (caught) { setErrors({ form: errorText(caught) }); }
  };

  return (
    <div class="card">
      <h3>API keys</h3>
      <FormError message={errors.form ?? listed.error} />
      {secret && (
        <div class="secret" role="status">
          <p>The key <strong>{secret.name}</strong> is shown only this once: copy it now.</p>
          <p><code data-testid="api-key-secret">{secret.key}</code> <CopyButton text={secret.key} label="Copy key" /></p>
          <button type="button" class="secondary" onClick={() => setSecret(undefined)}>I have copied it</button>
        </div>
      )}
      {keys.length === 0 ? <p class="muted">No API keys yet.</p> : (
        <ul class="keys">
          {keys.map((k) => (
            <li key={k.id}>
              <span class="key-name">{k.name}</span> <code>{k.prefix}…</code>
              <span class="scopes" aria-label={`Scopes of ${k.name}`}>{k.scopes.map((s) => <span class="scope" key={s}>{s}</span>)}</span>
              <span class="muted small">
                {' '}created {dateTime(k.created_at)}, {k.expires_at ? `expires ${dateTime(k.expires_at)}` : 'never expires'}, last used {k.last_used_at ? dateTime(k.last_used_at) : 'never'}
              </span>
              <button type="button" class="secondary" onClick={() => revoke(k)} aria-label={`Revoke ${k.name}`}>Revoke</button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={create} noValidate>
        <div class="inline-form">
          <Field id="key-name" label="New key name" maxLength={API_LIMITS.apiKeyNameMaxLength} value={name} onInput={(e) => setName(e.currentTarget.value)} error={errors.name} />
          <div class="field">
            <label for="key-expiry">Expires</label>
            <select id="key-expiry" value={String(expiryDays)} onChange={(e) => setExpiryDays(e.currentTarget.value === 'null' ? null : Number(e.currentTarget.value))}>
              {EXPIRIES.map(({ label, days }) => <option key={label} value={String(days)}>{label}</option>)}
            </select>
          </div>
        </div>
        <fieldset class="key-scopes" aria-describedby={errors.scopes ? 'key-scopes-error' : undefined}>
          <legend>What the key may do</legend>
          {SCOPES.map(({ scope, does }) => (
            <div class="field inline" key={scope}>
              <input id={`key-scope-${scope}`} type="checkbox" checked={scopes.has(scope)} onChange={(e) => toggle(scope, e.currentTarget.checked)} />
              <label for={`key-scope-${scope}`}><code>{scope}</code>: {does}</label>
            </div>
          ))}
          {errors.scopes && <p class="field-error" id="key-scopes-error">{errors.scopes}</p>}
        </fieldset>
        <button type="submit">Create API key</button>
      </form>
    </div>
  );
}
