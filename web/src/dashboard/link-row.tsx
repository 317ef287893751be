import { useState } from 'preact/hooks';
import { api, ApiError, errorText, type LinkJson, type LinkPage, type WorkspaceTag } from '../api.js';
import { TagChips, TagsField } from '../components/tag-chips.js';
import { tagNamesOf } from '../tags.js';
import { CopyButton } from '../components/copy-button.js';
import { Field, FormError } from '../components/field.js';
import { PreviewFields, previewChanged, previewInputsOf, previewOf } from '../components/preview-fields.js';
import { RedirectStatusField, type RedirectStatus } from '../components/redirect-status-field.js';
import { routingError, RoutingFields, routingPayload, routingValueOf } from '../components/routing-fields.js';
import { gateOfEdit, NO_GATE, PasswordField } from '../components/password-field.js';
import { dateTime, fromLocalInput, toLocalInput } from '../format.js';
import { ClickLimitFields, clickLimitChanges, clickLimitValuesOf, clicksLeftText } from '../components/click-limit-fields.js';
import { Link } from '../router.js';
import { Sparkline } from './sparkline.js';

export type ListedLink = LinkPage['items'][number];

const shortDate = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '—');

/** Host and path: what tells two destinations apart at a glance; the query string (UTM tags) only on hover or focus. */
function hostAndPath(url: string): string {
  try {
    const parsed = new URL(url);
    const rest = parsed.search || parsed.hash ? '…' : '';
    return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}${rest}`;
  } catch {
    return url;
  }
}

/** The destination on one line; the full URL in a tooltip on hover and on keyboard focus. Only http(s) becomes a link. */
function Destination({ url, id }: { url: string; id: string }) {
  const tip = <span class="dest-full" role="tooltip" id={id}>{url}</span>;
  if (!/^https?:\/\//i.test(url)) return <span class="dest">{url}</span>;
  return (
    <a class="dest" href={url} rel="noopener noreferrer nofollow" title={url} aria-describedby={id}>
      <span class="dest-short">{hostAndPath(url)}</span>{tip}
    </a>
  );
}

interface RowProps {
  link: ListedLink;
  known: readonly WorkspaceTag[] | undefined;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onEdit: () => void;
  onChanged: (message?: string) => void;
}

/** One dense row: select, short link with copy, destination, status, created, clicks with their trend, last click, actions allowed. */
export function LinkRow({ link, known, selected, onSelect, onEdit, onChanged }: RowProps) {
  const [error, setError] = useState<string>();
  const shortHost = link.shortUrl.replace(/^https?:\/\//, '').slice(0, -link.shortCode.length);
  const recent = link.trend.reduce((sum, n) => sum + n, 0);
  const act = async (method: 'DELETE' | 'POST', path: string, done: string) => {
    try {
      await api(method, path);
      onChanged(done);
    } catch (caught) {
      setError(errorText(caught));
    }
  };
  const { permissions } = link;
  const deleted = link.status === 'DELETED';
  return (
    <tr data-code={link.shortCode} class={selected ? 'selected' : undefined}>
      <td class="select"><input type="checkbox" checked={selected} onChange={(e) => onSelect(e.currentTarget.checked)} aria-label={`Select ${link.shortCode}`} /></td>
      <td data-label="Short link" class="short">
        <span class="muted">{shortHost}</span><Link href={`/app/links/${link.id}`} aria-label={`Details of ${link.shortCode}`}>{link.shortCode}</Link>
        {' '}<CopyButton text={link.shortUrl} name={`Copy ${link.shortUrl}`} />
      </td>
      <td data-label="Destination" class="url-cell"><Destination url={link.originalUrl} id={`dest-${link.id}`} /><TagChips tags={link.tags} known={known} /></td>
      <td data-label="Status"><span class={`badge status-${link.status.toLowerCase()}`}>{link.status}</span>{link.expiresAt && <div class="muted small">until {dateTime(link.expiresAt)}</div>}</td>
      <td data-label="Created"><time dateTime={link.createdAt} title={dateTime(link.createdAt)}>{shortDate(link.createdAt)}</time></td>
      <td data-label="Clicks" class="clicks" title={`${link.humanCount} by people, ${link.redirectCount} in all`}>
        <span class="count">{link.humanCount}</span> <Sparkline values={link.trend} />
        <span class="visually-hidden">{` by people; ${recent} in the last 14 days`}</span>
        {clicksLeftText(link) && <div class="muted small" data-testid="clicks-left">{clicksLeftText(link)}</div>}
      </td>
      <td data-label="Last click">{link.lastClickAt ? <time dateTime={link.lastClickAt} title={dateTime(link.lastClickAt)}>{shortDate(link.lastClickAt)}</time> : <span class="muted">never</span>}</td>
      <td data-label="Actions" class="actions">
        {deleted
          ? permissions.delete && <button type="button" class="secondary" onClick={() => act('POST', `/api/urls/${link.id}/restore`, `Restored ${link.shortCode}`)} aria-label={`Restore ${link.shortCode}`}>Restore</button>
          : <>
              {permissions.edit && <button type="button" class="secondary" onClick={onEdit} aria-label={`Edit ${link.shortCode}`}>Edit</button>}
              {permissions.delete && <button type="button" class="danger" onClick={() => act('DELETE', `/api/urls/${link.id}`, `Deleted ${link.shortCode}`)} aria-label={`Delete ${link.shortCode}`}>Delete</button>}
            </>}
        {!permissions.edit && !permissions.delete && <span class="muted small" title="Only the link's creator or a workspace admin can change it.">View only</span>}
        {error && <p class="field-error" role="alert">{error}</p>}
      </td>
    </tr>
  );
}

export function EditRow({ link, known, onDone }: { link: LinkJson; known: readonly WorkspaceTag[] | undefined; onDone: (message?: string) => void }) {
  const [url, setUrl] = useState(link.originalUrl);
  const [tags, setTags] = useState(link.tags.join(', '));
  const [expiresAt, setExpiresAt] = useState(toLocalInput(link.expiresAt));
  const [redirectStatus, setRedirectStatus] = useState(link.redirectStatus as RedirectStatus);
  const [preview, setPreview] = useState(previewInputsOf(link.preview));
  const [limits, setLimits] = useState(clickLimitValuesOf(link));
  const [routing, setRouting] = useState(() => routingValueOf(link));
  const [gate, setGate] = useState({ ...NO_GATE, confirm: link.confirmBeforeRedirect });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = async (event: Event) => {
    event.preventDefault();
    try {
      await api('PATCH', `/api/urls/${link.id}`, {
        url: url.trim(), expiresAt: fromLocalInput(expiresAt), tags: tagNamesOf(tags), redirectStatus,
        ...(previewChanged(preview, link.preview) && { preview: previewOf(preview) }), ...clickLimitChanges(link, limits), ...routingPayload(routing), ...gateOfEdit(gate),
      });
      onDone(`Saved ${link.shortCode}`);
    } catch (caught) {
      const field = caught instanceof ApiError ? caught.field() : undefined;
      setErrors({ [field ?? 'form']: errorText(caught) });
    }
  };
  const id = `edit-${link.id}`;
  return (
    <tr data-code={link.shortCode}>
      <td class="select" />
      <td>{link.shortCode}</td>
      <td colSpan={6}>
        <form onSubmit={save} class="edit" noValidate aria-label={`Edit ${link.shortCode}`}>
          <Field id={`${id}-url`} label="Destination URL" type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} error={errors.url} />
          <Field id={`${id}-expiry`} label="Expires (empty: never)" type="datetime-local" value={expiresAt} onInput={(e) => setExpiresAt(e.currentTarget.value)} error={errors.expiresAt} />
          <TagsField id={`${id}-tags`} value={tags} onInput={setTags} error={errors.tags} known={known} />
          <RedirectStatusField id={`${id}-redirect`} value={redirectStatus} onChange={setRedirectStatus} />
          <PreviewFields id={`${id}-preview`} value={preview} onChange={setPreview} errors={errors} />
          <ClickLimitFields id={id} values={limits} onChange={setLimits} errors={errors} />
          <RoutingFields id={`${id}-routing`} value={routing} onChange={setRouting} error={routingError(errors)} />
          <PasswordField id={`${id}-gate`} value={gate} onChange={setGate} error={errors.password} hasPassword={link.hasPassword} />
          <FormError message={errors.form} />
          <button type="submit">Save</button>
          <button type="button" class="secondary" onClick={() => onDone()}>Cancel</button>
        </form>
      </td>
    </tr>
  );
}
