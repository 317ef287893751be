import { useState } from 'preact/hooks';
import { api, ApiError, type LinkJson, type ResponseOf } from '../api.js';
import { CopyButton } from '../components/copy-button.js';
import { DestinationFields, useDestination } from '../components/destination-fields.js';
import { ExternalUrl } from '../components/external-url.js';
import { Field, FormError } from '../components/field.js';
import { QrCode } from '../components/qr-code.js';
import { TagChips, TagsField } from '../components/tag-chips.js';
import { tagNamesOf, useWorkspaceTags } from '../tags.js';
import { RedirectStatusField, type RedirectStatus } from '../components/redirect-status-field.js';
import { ClickLimitFields, clickLimitCreateBody, NO_CLICK_LIMIT } from '../components/click-limit-fields.js';
import { hasRouting, NO_ROUTING, RoutingFields, routingPayload } from '../components/routing-fields.js';
import { gateOfCreate, NO_GATE, PasswordField } from '../components/password-field.js';
import { chooseWorkspace, currentWorkspaceId } from '../current-workspace.js';
import { dateTime, fromLocalInput } from '../format.js';
import { Link } from '../router.js';
import { useApi } from '../use-api.js';

type Workspaces = ResponseOf<'listWorkspaces'>['workspaces'];
type Errors = Partial<Record<'url' | 'customCode' | 'expiresAt' | 'tags' | 'maxClicks' | 'fallbackUrl' | 'password' | 'form', string>>;

/** `/` signed in: a permanent link in the current workspace, with an optional custom code, expiry and redirect status. */
export function OwnedShortenForm() {
  const workspaces = useApi<ResponseOf<'listWorkspaces'>>('/api/v1/workspaces').data?.workspaces;
  const [chosen, setChosen] = useState<number>();
  const workspaceId = chosen ?? (workspaces && currentWorkspaceId(workspaces));
  const destination = useDestination(workspaceId === undefined ? 'none' : String(workspaceId));
  const [customCode, setCustomCode] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [tags, setTags] = useState('');
  const known = useWorkspaceTags(workspaceId === undefined ? [] : [workspaceId]);
  const [redirectStatus, setRedirectStatus] = useState<RedirectStatus>(null);
  const [limits, setLimits] = useState(NO_CLICK_LIMIT);
  const [routing, setRouting] = useState(NO_ROUTING);
  const [gate, setGate] = useState(NO_GATE);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<LinkJson>();

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setCreated(undefined);
    try {
      const link = await api<LinkJson>('POST', '/api/urls', {
        url: destination.final(),
        ...(customCode.trim() && { customCode: customCode.trim() }),
        ...(expiresAt && { expiresAt: fromLocalInput(expiresAt) }),
        ...(workspaceId !== undefined && { workspaceId }),
        ...(tagNamesOf(tags).length > 0 && { tags: tagNamesOf(tags) }),
        ...(redirectStatus !== null && { redirectStatus }),
        ...clickLimitCreateBody(limits),
        ...(hasRouting(routing) && routingPayload(routing)),
        ...gateOfCreate(gate),
      });
      setCreated(link);
      destination.setUrl(''); setCustomCode(''); setExpiresAt(''); setTags(''); setRedirectStatus(null); setLimits(NO_CLICK_LIMIT); setRouting(NO_ROUTING); setGate(NO_GATE);
      known.reload();
    } catch (caught) {
      const field = caught instanceof ApiError ? caught.field() : undefined;
      const message = caught instanceof ApiError ? caught.problem.detail : 'Something went wrong.';
      setErrors({ [field === 'url' || field === 'customCode' || field === 'expiresAt' || field === 'tags' || field === 'maxClicks' || field === 'fallbackUrl' || field === 'password' ? field : 'form']: message });
    } finally {
      setBusy(false);
    }
  };
  const pick = (id: number) => { chooseWorkspace(id); setChosen(id); };

  return (
    <>
      <form onSubmit={submit} class="shorten-owned card" noValidate>
        {workspaces && workspaces.length > 1 && <WorkspacePicker workspaces={workspaces} value={workspaceId} onChange={pick} />}
        <DestinationFields id="url" destination={destination} error={errors.url} />
        <div class="shorten-extras">
          <Field id="custom-code" label="Custom code (optional)" value={customCode} maxLength={64} onInput={(e) => setCustomCode(e.currentTarget.value)}
            error={errors.customCode} hint="Letters, digits, - and _." />
          <Field id="expires-at" label="Expires (optional)" type="datetime-local" value={expiresAt} onInput={(e) => setExpiresAt(e.currentTarget.value)}
            error={errors.expiresAt} hint="Empty: the link never expires." />
          <TagsField id="tags" value={tags} onInput={setTags} error={errors.tags} known={workspaceId === undefined ? undefined : known.tags.get(workspaceId)} />
        </div>
        <details class="more-options" open={redirectStatus !== null}>
          <summary>Redirect status{redirectStatus === null ? ' (optional)' : ` (${redirectStatus})`}</summary>
          <RedirectStatusField id="redirect-status" value={redirectStatus} onChange={setRedirectStatus} />
        </details>
        <details class="more-options" open={limits.maxClicks !== '' || limits.fallbackUrl !== '' || errors.maxClicks !== undefined || errors.fallbackUrl !== undefined}>
          <summary>Click limit and fallback (optional)</summary>
          <ClickLimitFields id="limit" values={limits} onChange={setLimits} errors={errors} />
        </details>
        <details class="more-options" open={hasRouting(routing)}>
          <summary>Routing and A/B split (optional)</summary>
          <RoutingFields id="routing" value={routing} onChange={setRouting} />
        </details>
        <details class="more-options" open={gate !== NO_GATE || errors.password !== undefined}>
          <summary>Password and confirmation (optional)</summary>
          <PasswordField id="gate" value={gate} onChange={setGate} error={errors.password} />
        </details>
        <FormError message={errors.form} />
        <button type="submit" disabled={busy}>{busy ? 'Shortening…' : 'Shorten'}</button>
      </form>
      {created && <CreatedLink link={created} workspace={workspaces?.find((w) => w.id === created.workspaceId)?.name} />}
    </>
  );
}

function WorkspacePicker({ workspaces, value, onChange }: { workspaces: Workspaces; value: number | undefined; onChange: (id: number) => void }) {
  return (
    <div class="field">
      <label for="workspace">Workspace</label>
      <select id="workspace" value={value === undefined ? '' : String(value)} onChange={(e) => onChange(Number(e.currentTarget.value))}>
        {workspaces.map((w) => <option key={w.id} value={String(w.id)}>{w.name}</option>)}
      </select>
    </div>
  );
}

function CreatedLink({ link, workspace }: { link: LinkJson; workspace: string | undefined }) {
  return (
    <section class="result card" aria-labelledby="result-heading">
      <h2 id="result-heading">Your short link</h2>
      <p class="short-url">
        <a href={link.shortUrl} data-testid="short-url">{link.shortUrl}</a>
        <CopyButton text={link.shortUrl} label="Copy link" />
      </p>
      <p class="muted">to <ExternalUrl url={link.originalUrl} /></p>
      <p data-testid="link-lifetime">
        {link.expiresAt ? `Expires ${dateTime(link.expiresAt)}` : 'Permanent'}{link.tags.length > 0 && <> · <TagChips tags={link.tags} known={undefined} /></>}{workspace && <> · in {workspace}</>} · <Link href={`/app/links/${link.id}`}>Open its page</Link>
      </p>
      <QrCode url={link.shortUrl} code={link.shortCode} />
    </section>
  );
}
