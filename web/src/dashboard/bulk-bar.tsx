import { useState } from 'preact/hooks';
import { api, errorText, type ResponseOf, type Workspace } from '../api.js';
import { FormError } from '../components/field.js';
import { downloadPost } from './download.js';
import type { ListedLink } from './link-row.js';
import { matchingOf, type ListState } from './list-state.js';

/** The links a bulk action names: ticked rows, or every link the filters match. */
export interface Selection {
  readonly ids: ReadonlySet<number>;
  readonly allMatching: boolean;
}

type BulkAnswer = ResponseOf<'bulkLinks'>;
export interface BulkOutcome { message: string; undo?: () => Promise<string> }

interface BulkBarProps {
  state: ListState;
  selection: Selection;
  total: number;
  pageLinks: ListedLink[];
  workspaces: Workspace[];
  onDone: (outcome: BulkOutcome) => void;
  /** An action starts: the page's last notice is about something else now. */
  onStart: () => void;
}

const plural = (n: number) => `${n} link${n === 1 ? '' : 's'}`;

/** What can be done with the selection, each one API call: delete (undoable), restore, move, export. */
export function BulkBar({ state, selection, total, pageLinks, workspaces, onDone, onStart }: BulkBarProps) {
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const named = selection.allMatching ? { matching: matchingOf(state) } : { ids: [...selection.ids] };
  const count = selection.allMatching ? total : selection.ids.size;
  const chosen = pageLinks.filter((link) => selection.ids.has(link.id));
  const mayChange = selection.allMatching || chosen.every((link) => link.permissions.delete);
  const anyDeleted = selection.allMatching || chosen.some((link) => link.status === 'DELETED');
  const anyLive = selection.allMatching || chosen.some((link) => link.status !== 'DELETED');
  const run = async (work: () => Promise<BulkOutcome | undefined>) => {
    setError(undefined);
    onStart();
    setBusy(true);
    try {
      const outcome = await work();
      if (outcome) onDone(outcome);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };
  const bulk = (body: Record<string, unknown>) => api<BulkAnswer>('POST', '/api/urls/bulk', { ...named, ...body });
  const remove = () => run(async () => {
    const done = await bulk({ action: 'delete' });
    const undo = async () => `Restored ${plural((await api<BulkAnswer>('POST', '/api/urls/bulk', { action: 'restore', ids: done.ids })).changed)}.`;
    return { message: `Deleted ${plural(done.changed)}.`, undo: done.ids.length > 0 ? undo : undefined };
  });
  const restore = () => run(async () => ({ message: `Restored ${plural((await bulk({ action: 'restore' })).changed)}.` }));
  const move = () => run(async () => {
    if (!target) { setError('Choose the workspace to move the links to.'); return undefined; }
    const done = await bulk({ action: 'move', workspaceId: Number(target) });
    const to = workspaces.find((w) => String(w.id) === target);
    return { message: `Moved ${plural(done.changed)} to ${to?.is_personal ? 'Personal' : to?.name ?? 'the workspace'}.` };
  });
  const exportAs = (format: 'csv' | 'json') => run(async () => {
    await downloadPost('/api/urls/export', { format, ...named }, `linkforge-links.${format === 'csv' ? 'csv' : 'jsonl'}`);
    return { message: `Exported ${plural(count)} as ${format === 'csv' ? 'CSV' : 'Linkforge JSON'}.` };
  });
  return (
    <div class="bulk-bar card" role="group" aria-label="Selected links" aria-busy={busy}>
      <p class="bulk-count"><strong>{count}</strong> selected{selection.allMatching && ' (all matching)'}</p>
      <div class="bulk-actions">
        {mayChange && anyLive && <button type="button" class="danger" disabled={busy} onClick={remove}>Delete selected</button>}
        {mayChange && anyDeleted && <button type="button" class="secondary" disabled={busy} onClick={restore}>Restore selected</button>}
        {mayChange && workspaces.length > 1 && (
          <span class="bulk-move">
            <label for="move-target">Move to</label>
            <select id="move-target" value={target} onChange={(e) => setTarget(e.currentTarget.value)}>
              <option value="">Choose a workspace</option>
              {workspaces.map((w) => <option key={w.id} value={String(w.id)}>{w.is_personal ? 'Personal' : w.name}</option>)}
            </select>
            <button type="button" class="secondary" disabled={busy} onClick={move}>Move</button>
          </span>
        )}
        <button type="button" class="secondary" disabled={busy} onClick={() => exportAs('csv')}>Export CSV</button>
        <button type="button" class="secondary" disabled={busy} onClick={() => exportAs('json')}>Export JSON</button>
      </div>
      {!mayChange && <p class="muted small">Some selected links were created by someone else: only their creator or a workspace admin can delete or move them.</p>}
      <FormError message={error} />
    </div>
  );
}
