import { useState } from 'preact/hooks';
import { api, ApiError, errorText, type Workspace, type WorkspaceTag } from '../api.js';
import { FormError } from '../components/field.js';
import { TagChip } from '../components/tag-chips.js';
import { TAG_PALETTE, useWorkspaceTags } from '../tags.js';

/** The workspace's tags with their link counts; owners and admins rename, recolour and delete them (ADR 0030). */
export function WorkspaceTags({ workspace, canManage }: { workspace: Workspace; canManage: boolean }) {
  const { tags, reload } = useWorkspaceTags([workspace.id]);
  const listed = tags.get(workspace.id);
  const [error, setError] = useState<string>();
  const change = async (tag: WorkspaceTag, method: 'PATCH' | 'DELETE', body?: object) => {
    setError(undefined);
    try {
      await api(method, `/api/v1/workspaces/${workspace.id}/tags/${tag.id}`, body);
      reload();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.problem.detail : errorText(caught));
    }
  };
  return (
    <div class="card tags-manager">
      <h3>Tags</h3>
      <FormError message={error} />
      {listed === undefined ? <p class="muted">Loading tags…</p> : listed.length === 0
        ? <p class="muted">No tags yet: give a link tags when you create or edit it.</p>
        : (
          <ul>
            {listed.map((tag) => (
              <li key={tag.id} data-tag-row={tag.name}>
                <TagChip name={tag.name} colour={tag.colour} />
                <span class="muted small tag-count">{tag.link_count} link{tag.link_count === 1 ? '' : 's'}</span>
                {canManage && <TagControls tag={tag} onChange={(method, body) => change(tag, method, body)} />}
              </li>
            ))}
          </ul>
        )}
    </div>
  );
}

function TagControls({ tag, onChange }: { tag: WorkspaceTag; onChange: (method: 'PATCH' | 'DELETE', body?: object) => void }) {
  const [name, setName] = useState(tag.name);
  const custom = !(TAG_PALETTE as readonly string[]).includes(tag.colour);
  return (
    <>
      <form class="tag-rename" onSubmit={(e) => { e.preventDefault(); onChange('PATCH', { name }); }} aria-label={`Rename ${tag.name}`}>
        <label class="visually-hidden" for={`tag-name-${tag.id}`}>New name for {tag.name}</label>
        <input id={`tag-name-${tag.id}`} value={name} maxLength={32} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit" class="secondary" disabled={name.trim() === tag.name}>Rename</button>
      </form>
      <label class="visually-hidden" for={`tag-colour-${tag.id}`}>Colour of {tag.name}</label>
      <select id={`tag-colour-${tag.id}`} value={tag.colour} onChange={(e) => onChange('PATCH', { colour: e.currentTarget.value })}>
        {custom && <option value={tag.colour}>{tag.colour}</option>}
        {TAG_PALETTE.map((colour) => <option key={colour} value={colour}>{colour}</option>)}
      </select>
      <button type="button" class="danger" onClick={() => onChange('DELETE')} aria-label={`Delete the tag ${tag.name}`}>Delete</button>
    </>
  );
}
