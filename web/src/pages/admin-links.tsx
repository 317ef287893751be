import { useState } from 'preact/hooks';
import { api, ApiError, errorText, type ResponseOf } from '../api.js';
import { Field, FormError } from '../components/field.js';
import { ExternalUrl } from '../components/external-url.js';
import { dateTime } from '../format.js';

type OperatorLink = ResponseOf<'getAdminLink'>;

/** `https://sho.rt/abc`, `sho.rt/abc/` or `abc`: the code is the last part of the path. */
export function codeOf(input: string): string {
  const trimmed = input.trim().replace(/[?#].*$/, '').replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** Any link by its code: who owns it, where it goes, and the abuse workflow (disable with a reason, enable). */
export function AdminLinkLookup() {
  const [input, setInput] = useState('');
  const [link, setLink] = useState<OperatorLink>();
  const [errors, setErrors] = useState<{ code?: string; form?: string }>({});
  const [notice, setNotice] = useState('');

  const lookUp = async (event: Event) => {
    event.preventDefault();
    const code = codeOf(input);
    setNotice('');
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) { setLink(undefined); setErrors({ code: 'Enter a short code or a short URL.' }); return; }
    try {
      setLink(await api<OperatorLink>('GET', `/api/admin/links/${code}`));
      setErrors({});
    } catch (caught) {
      setLink(undefined);
      setErrors(caught instanceof ApiError && caught.problem.status === 404 ? { code: `No link has the code ${code}.` } : { form: errorText(caught) });
    }
  };

  return (
    <section id="admin-link" aria-labelledby="admin-link-heading">
      <h2 id="admin-link-heading">Find a link</h2>
      <form class="inline-form card" role="search" onSubmit={lookUp} noValidate>
        <Field id="admin-code" label="Short code or short URL" value={input} onInput={(e) => setInput(e.currentTarget.value)} error={errors.code} autocomplete="off" spellcheck={false} />
        <button type="submit">Look up</button>
      </form>
      <FormError message={errors.form} />
      <p class="notice" role="status">{notice}</p>
      {link && <LinkCard key={link.id} link={link} onChange={(changed, message) => { setLink(changed); setNotice(message); }} />}
    </section>
  );
}

function LinkCard({ link, onChange }: { link: OperatorLink; onChange: (link: OperatorLink, notice: string) => void }) {
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; form?: string }>({});
  const disabled = link.disabledReason !== null;

  const disable = async (event: Event) => {
    event.preventDefault();
    if (!reason.trim()) { setErrors({ reason: 'Say why: visitors of the link read it.' }); return; }
    try {
      const changed = await api<OperatorLink>('POST', `/api/admin/links/${link.shortCode}/disable`, { reason: reason.trim() });
      setErrors({}); setReason('');
      onChange(changed, `${changed.shortUrl} is disabled: it answers 410 with your reason.`);
    } catch (caught) {
      setErrors(caught instanceof ApiError && caught.problem.status === 400 ? { reason: errorText(caught) } : { form: errorText(caught) });
    }
  };
  const enable = async () => {
    try {
      const changed = await api<OperatorLink>('POST', `/api/admin/links/${link.shortCode}/enable`);
      setErrors({});
      onChange(changed, `${changed.shortUrl} is enabled again.`);
    } catch (caught) {
      setErrors({ form: errorText(caught) });
    }
  };

  return (
    <div class="card" data-testid="admin-link">
      <h3><code>{link.shortCode}</code> {disabled ? <span class="badge status-disabled">disabled</span> : <span class={`badge status-${link.status.toLowerCase()}`}>{link.status.toLowerCase()}</span>}</h3>
      <dl class="facts">
        <dt>Short URL</dt><dd class="url-cell">{link.shortUrl}</dd>
        <dt>Destination</dt><dd><ExternalUrl url={link.originalUrl} /></dd>
        <dt>Owner</dt><dd>{link.ownerEmail ?? (link.linkType === 'TEMPORARY' ? 'anonymous' : '—')}</dd>
        <dt>Workspace</dt><dd>{link.workspaceName ?? '—'}</dd>
        <dt>Created</dt><dd>{dateTime(link.createdAt)}{link.expiresAt ? `, expires ${dateTime(link.expiresAt)}` : ''}</dd>
        <dt>Clicks</dt><dd>{link.humanCount} by people, {link.redirectCount} redirects in all</dd>
        {disabled && <><dt>Disabled</dt><dd>{dateTime(link.disabledAt)}: {link.disabledReason}</dd></>}
      </dl>
      <FormError message={errors.form} />
      {disabled ? (
        <p class="admin-row"><button type="button" class="secondary" onClick={enable}>Enable link</button></p>
      ) : (
        <form onSubmit={disable} class="inline-form admin-disable" noValidate>
          <Field id="disable-reason" label="Reason, shown to everyone who follows the link" maxLength={500} value={reason}
            onInput={(e) => setReason(e.currentTarget.value)} error={errors.reason} hint="For example: Reported as phishing." />
          <button type="submit" class="danger">Disable link</button>
        </form>
      )}
    </div>
  );
}
