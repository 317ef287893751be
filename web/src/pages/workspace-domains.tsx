import { useState } from 'preact/hooks';
import { api, ApiError, errorText, type ResponseOf, type Workspace, type WorkspaceDomain } from '../api.js';
import { Field, FormError } from '../components/field.js';
import { useApi } from '../use-api.js';

/** A workspace's custom domains (ADR 0036): add one, see what proves control of it, verify, set its redirects, delete. Owners and admins only. */
export function WorkspaceDomains({ workspace }: { workspace: Workspace }) {
  const base = `/api/v1/workspaces/${workspace.id}/domains`;
  const listed = useApi<ResponseOf<'listDomains'>>(base);
  const [hostname, setHostname] = useState('');
  const [errors, setErrors] = useState<{ hostname?: string; form?: string }>({});
  const act = async (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: object) => {
    setErrors({});
    try {
      await api(method, path, body);
      await listed.reload();
      return true;
    } catch (caught) {
      setErrors({ form: caught instanceof ApiError ? caught.problem.detail : errorText(caught) });
      return false;
    }
  };
  const add = async (event: Event) => {
    event.preventDefault();
    try {
      await api('POST', base, { hostname: hostname.trim() });
      setHostname(''); setErrors({});
      await listed.reload();
    } catch (caught) {
      setErrors({ hostname: errorText(caught) });
    }
  };
  const domains = listed.data?.items ?? [];
  return (
    <div class="card domains-manager">
      <h3>Domains</h3>
      <FormError message={errors.form ?? listed.error} />
      {domains.length === 0 ? <p class="muted">No custom domains yet: links use this service's own address.</p> : (
        <ul class="domains">
          {domains.map((domain) => (
            <DomainRow key={domain.id} domain={domain}
              onVerify={() => act('POST', `${base}/${domain.id}/verify`)}
              onRedirects={(body) => act('PATCH', `${base}/${domain.id}`, body)}
              onDelete={() => act('DELETE', `${base}/${domain.id}`)} />
          ))}
        </ul>
      )}
      <form onSubmit={add} class="inline-form" noValidate>
        <Field id="domain-hostname" label="Add a domain" placeholder="go.example.com" value={hostname} onInput={(e) => setHostname(e.currentTarget.value)} error={errors.hostname} />
        <button type="submit">Add domain</button>
      </form>
    </div>
  );
}

function DomainRow({ domain, onVerify, onRedirects, onDelete }: {
  domain: WorkspaceDomain; onVerify: () => void; onRedirects: (body: object) => void; onDelete: () => void;
}) {
  const [root, setRoot] = useState(domain.root_redirect_url ?? '');
  const [notFound, setNotFound] = useState(domain.not_found_redirect_url ?? '');
  const save = (event: Event) => {
    event.preventDefault();
    onRedirects({ root_redirect_url: root.trim() || null, not_found_redirect_url: notFound.trim() || null });
  };
  return (
    <li data-domain={domain.hostname}>
      <p><strong>{domain.hostname}</strong> <span class={`badge domain-${domain.status}`}>{domain.status}</span></p>
      {domain.status === 'pending' && (
        <div class="domain-proof">
          <p class="small">Prove you control it, either way, then verify:</p>
          <p class="small">A DNS TXT record <code>{domain.verification.txt_record.name}</code> with the value <code>{domain.verification.txt_record.value}</code>;</p>
          <p class="small">or point the name at this service, which then answers <code>{domain.verification.http_url}</code>.</p>
          <button type="button" onClick={onVerify}>Verify</button>
        </div>
      )}
      <form onSubmit={save} class="inline-form" noValidate aria-label={`Redirects of ${domain.hostname}`}>
        <Field id={`domain-root-${domain.id}`} label="Root redirect (optional)" type="url" value={root} onInput={(e) => setRoot(e.currentTarget.value)} />
        <Field id={`domain-missing-${domain.id}`} label="Unknown-code redirect (optional)" type="url" value={notFound} onInput={(e) => setNotFound(e.currentTarget.value)} />
        <button type="submit" class="secondary">Save redirects</button>
      </form>
      <button type="button" class="danger" onClick={onDelete} aria-label={`Delete the domain ${domain.hostname}`}>Delete</button>
    </li>
  );
}
