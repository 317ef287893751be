import { useState } from 'preact/hooks';
import { api, errorText, type CreatedShare, type ShareStatus } from '../api.js';
import { dateTime } from '../format.js';
import { useApi } from '../use-api.js';
import { CopyButton } from './copy-button.js';
import { FormError } from './field.js';

/**
 * The link page's share control: whether the stats have a share address, and for an owner or admin
 * the buttons to make one (shown once, to copy) or revoke it. A link has one address at a time.
 */
export function ShareControl({ linkId }: { linkId: number }) {
  const path = `/api/urls/${linkId}/share`;
  const { data: status, error: loadError, reload } = useApi<ShareStatus>(path);
  const [created, setCreated] = useState<CreatedShare>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const change = async (method: 'POST' | 'DELETE') => {
    setBusy(true);
    try {
      const answer = await api<CreatedShare | undefined>(method, path);
      setCreated(answer);
      setError(undefined);
      await reload();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card share-control" aria-labelledby="share-heading">
      <h2 id="share-heading">Share the stats</h2>
      <p class="muted">Anyone with the share link sees this link's clicks, read-only and without signing in. It shows the destination without its query string, and viewing it counts as no click.</p>
      {status && (
        <p data-testid="share-status">
          {status.shared ? <><span class="badge status-active">Shared</span> since {dateTime(status.createdAt)}</> : <span class="badge">Not shared</span>}
        </p>
      )}
      {created && status?.shared && (
        <div class="share-url" data-testid="share-url">
          <p class="short-url"><a href={created.url}>{created.url}</a> <CopyButton text={created.url} label="Copy share link" /></p>
          <p class="hint">Shown once: copy it now. Making a new share link stops this one working.</p>
        </div>
      )}
      {status?.mayShare ? (
        <p class="actions">
          <button type="button" class={status?.shared ? 'secondary' : undefined} disabled={busy} onClick={() => change('POST')}>
            {status?.shared ? 'Make a new share link' : 'Create share link'}
          </button>
          {status?.shared && <button type="button" class="danger" disabled={busy} onClick={() => change('DELETE')}>Revoke share link</button>}
        </p>
      ) : status && <p class="muted" data-testid="share-view-only">Only a workspace owner or admin can share the stats or revoke a share.</p>}
      <FormError message={error ?? loadError} />
    </section>
  );
}
