import type { ResponseOf } from '../api.js';
import { useApi } from '../use-api.js';

/** The short domain of a new link: this service's own, or one of the workspace's verified domains (ADR 0036); nothing when it has none. */
export function DomainField({ workspaceId, value, onChange, error }: { workspaceId: string; value: string; onChange: (hostname: string) => void; error?: string }) {
  const listed = useApi<ResponseOf<'listDomains'>>(`/api/v1/workspaces/${workspaceId}/domains`);
  const verified = (listed.data?.items ?? []).filter((domain) => domain.status === 'verified');
  if (verified.length === 0) return null;
  return (
    <div class="field">
      <label for="new-domain">Domain</label>
      <select id="new-domain" value={value} onChange={(e) => onChange(e.currentTarget.value)} aria-invalid={error ? true : undefined}>
        <option value="">{location.host} (this service)</option>
        {verified.map((domain) => <option key={domain.id} value={domain.hostname}>{domain.hostname}</option>)}
      </select>
      {error && <p class="error">{error}</p>}
    </div>
  );
}
