import { useState } from 'preact/hooks';
import { api, errorText, type CreatedWebhook, type ResponseOf, type Webhook, type Workspace } from '../api.js';
import { CopyButton } from '../components/copy-button.js';
import { Field, FormError } from '../components/field.js';
import { dateTime } from '../format.js';
import { useApi } from '../use-api.js';

const EVENTS = ['link.created', 'link.updated', 'link.deleted', 'link.expired', 'link.limit_reached', 'link.clicked'] as const;

/** The workspace's webhook endpoints (ADR 0035): owners and admins register them, see their deliveries and send one again. */
export function WorkspaceWebhooks({ workspace }: { workspace: Workspace }) {
  const base = `/api/v1/workspaces/${workspace.id}/webhooks`;
  const listed = useApi<ResponseOf<'listWebhooks'>>(base);
  const webhooks = listed.data?.webhooks ?? [];
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['link.created']);
  const [secret, setSecret] = useState<{ url: string; secret: string }>();
  const [errors, setErrors] = useState<{ url?: string; form?: string }>({});

  const create = async (event: Event) => {
    event.preventDefault();
    if (!url.trim()) { setErrors({ url: 'Give the address that receives the events.' }); return; }
    if (events.length === 0) { setErrors({ form: 'Choose at least one event.' }); return; }
    try {
      const created = await api<CreatedWebhook>('POST', base, { url: url.trim(), events });
      setSecret({ url: created.url, secret: created.secret });
      setUrl(''); setErrors({});
      await listed.reload();
    } catch (caught) {
      setErrors({ url: errorText(caught) });
    }
  };
  const change = async (webhook: Webhook, method: 'PATCH' | 'DELETE', body?: object) => {
    try { await api(method, `${base}/${webhook.id}`, body); await listed.reload(); } catch (caught) { setErrors({ form: errorText(caught) }); }
  };
  const toggle = (name: string, on: boolean) => setEvents((current) => (on ? [...current, name] : current.filter((e) => e !== name)));

  return (
    <div class="card">
      <h3>Webhooks</h3>
      <FormError message={errors.form ?? listed.error} />
      {secret && (
        <div class="secret" role="status">
          <p>The signing secret of <strong>{secret.url}</strong> is shown only this once: copy it now.</p>
          <p><code data-testid="webhook-secret">{secret.secret}</code> <CopyButton text={secret.secret} label="Copy secret" /></p>
          <button type="button" class="secondary" onClick={() => setSecret(undefined)}>I have copied it</button>
        </div>
      )}
      {webhooks.length === 0 ? <p class="muted">No webhooks yet.</p> : (
        <ul class="webhooks">
          {webhooks.map((w) => (
            <li key={w.id}>
              <code class="webhook-url">{w.url}</code> <span class="badge">{w.enabled ? 'enabled' : 'disabled'}</span>
              <span class="muted small"> {w.events.join(', ')}</span>
              {w.disabled_reason && <p class="webhook-disabled-reason">{w.disabled_reason}</p>}
              <button type="button" class="secondary" onClick={() => change(w, 'PATCH', { enabled: !w.enabled })}>{w.enabled ? 'Disable' : 'Enable'}</button>
              <button type="button" class="secondary" onClick={() => change(w, 'DELETE')} aria-label={`Delete webhook ${w.url}`}>Delete</button>
              <Deliveries base={`${base}/${w.id}`} />
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={create} class="inline-form" noValidate>
        <Field id="webhook-url" label="Webhook URL" type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} error={errors.url} />
        <fieldset class="webhook-events">
          <legend>Events</legend>
          {EVENTS.map((name) => (
            <label key={name}><input type="checkbox" checked={events.includes(name)} onChange={(e) => toggle(name, e.currentTarget.checked)} /> {name}</label>
          ))}
        </fieldset>
        <button type="submit">Add webhook</button>
      </form>
    </div>
  );
}

/** An endpoint's last deliveries, newest first, each with a Redeliver button. */
function Deliveries({ base }: { base: string }) {
  const listed = useApi<ResponseOf<'listWebhookDeliveries'>>(`${base}/deliveries`);
  const deliveries = listed.data?.deliveries ?? [];
  const [error, setError] = useState<string>();
  const redeliver = async (id: number) => {
    try { await api('POST', `${base}/deliveries/${id}/redeliver`); await listed.reload(); } catch (caught) { setError(errorText(caught)); }
  };
  if (deliveries.length === 0) return <p class="muted small">No deliveries yet.</p>;
  return (
    <details class="webhook-deliveries">
      <summary>Last deliveries ({deliveries.length})</summary>
      <FormError message={error ?? listed.error} />
      <table>
        <thead><tr><th>Event</th><th>Status</th><th>Attempts</th><th>Last answer</th><th>Next attempt</th><th /></tr></thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id}>
              <td>{d.event_type}</td>
              <td>{d.status}</td>
              <td>{d.attempts}</td>
              <td>{d.last_error ?? (d.last_status === null ? '—' : `HTTP ${d.last_status}`)}</td>
              <td>{d.next_attempt_at ? dateTime(d.next_attempt_at) : '—'}</td>
              <td><button type="button" class="secondary" onClick={() => redeliver(d.id)} aria-label={`Redeliver ${d.event_type} ${d.id}`}>Redeliver</button></td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
