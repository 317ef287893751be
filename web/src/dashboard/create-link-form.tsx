import { useState } from 'preact/hooks';
import { api, ApiError, errorText, type LinkJson, type Workspace, type WorkspaceTag } from '../api.js';
import { TagsField } from '../components/tag-chips.js';
import { tagNamesOf } from '../tags.js';
import { Field, FormError } from '../components/field.js';
import { RedirectStatusField, type RedirectStatus } from '../components/redirect-status-field.js';
import { EMPTY_PREVIEW, PreviewFields, previewOf } from '../components/preview-fields.js';
import { gateOfCreate, NO_GATE, PasswordField } from '../components/password-field.js';
import { fromLocalInput } from '../format.js';
import { ClickLimitFields, clickLimitCreateBody, NO_CLICK_LIMIT } from '../components/click-limit-fields.js';
import { DomainField } from './domain-field.js';
import { hasRouting, NO_ROUTING, routingError, RoutingFields, routingPayload } from '../components/routing-fields.js';

/** Creates a link in the chosen workspace: the one the dashboard shows, unless changed here. */
export function CreateLinkForm({ workspaces, workspaceId: shown, tags: known, onCreated }: {
  workspaces: Workspace[]; workspaceId?: number; tags: Map<number, WorkspaceTag[]>; onCreated: (link: LinkJson) => void;
}) {
  const [url, setUrl] = useState('');
  const [tags, setTags] = useState('');
  const [customCode, setCustomCode] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [redirectStatus, setRedirectStatus] = useState<RedirectStatus>(null);
  const [preview, setPreview] = useState(EMPTY_PREVIEW);
  const [limits, setLimits] = useState(NO_CLICK_LIMIT);
  const [routing, setRouting] = useState(NO_ROUTING);
  const [gate, setGate] = useState(NO_GATE);
  const [chosen, setChosen] = useState<string>();
  const [domain, setDomain] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const personal = workspaces.find((w) => w.is_personal);
  const workspaceId = chosen ?? String(shown ?? personal?.id ?? '');
  const manages = ['owner', 'admin'].includes(workspaces.find((w) => String(w.id) === workspaceId)?.role ?? '');
  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    try {
      const body = {
        url: url.trim(),
        ...(customCode.trim() && { customCode: customCode.trim() }),
        ...(expiresAt && { expiresAt: fromLocalInput(expiresAt) }),
        ...(workspaceId && { workspaceId: Number(workspaceId) }),
        ...(domain && { domain }),
        ...(tagNamesOf(tags).length > 0 && { tags: tagNamesOf(tags) }),
        ...(redirectStatus !== null && { redirectStatus }),
        ...(previewOf(preview) !== null && { preview: previewOf(preview)! }),
        ...clickLimitCreateBody(limits),
        ...(hasRouting(routing) && routingPayload(routing)),
        ...gateOfCreate(gate),
      };
      const link = await api<LinkJson>('POST', '/api/urls', body);
      setUrl(''); setCustomCode(''); setExpiresAt(''); setTags(''); setRedirectStatus(null); setPreview(EMPTY_PREVIEW); setLimits(NO_CLICK_LIMIT); setRouting(NO_ROUTING); setGate(NO_GATE);
      onCreated(link);
    } catch (caught) {
      const field = caught instanceof ApiError ? caught.field() : undefined;
      setErrors({ [field ?? 'form']: errorText(caught) });
    }
  };
  return (
    <details class="card create">
      <summary>Create a link</summary>
      <form onSubmit={submit} noValidate>
        <Field id="new-url" label="Destination URL" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} error={errors.url} />
        <Field id="new-code" label="Custom code (optional)" value={customCode} onInput={(e) => setCustomCode(e.currentTarget.value)} error={errors.customCode}
          hint="Letters, digits, - and _." />
        {manages && <DomainField workspaceId={workspaceId} value={domain} onChange={setDomain} error={errors.domain} />}
        <Field id="new-expiry" label="Expires (optional)" type="datetime-local" value={expiresAt} onInput={(e) => setExpiresAt(e.currentTarget.value)} error={errors.expiresAt} />
        <TagsField id="new-tags" value={tags} onInput={setTags} error={errors.tags} known={known.get(Number(workspaceId))} />
        <RedirectStatusField id="new-redirect" value={redirectStatus} onChange={setRedirectStatus} />
        <PreviewFields id="new-preview" value={preview} onChange={setPreview} errors={errors} />
        <ClickLimitFields id="new" values={limits} onChange={setLimits} errors={errors} />
        <RoutingFields id="new-routing" value={routing} onChange={setRouting} error={routingError(errors)} />
        <PasswordField id="new-gate" value={gate} onChange={setGate} error={errors.password} />
        {workspaces.length > 1 && (
          <div class="field">
            <label for="new-workspace">Workspace</label>
            <select id="new-workspace" value={workspaceId} onChange={(e) => { setChosen(e.currentTarget.value); setDomain(''); }}>
              {workspaces.map((w) => <option key={w.id} value={String(w.id)}>{w.is_personal ? 'Personal' : w.name}</option>)}
            </select>
          </div>
        )}
        <FormError message={errors.form} />
        <button type="submit">Create link</button>
      </form>
    </details>
  );
}
