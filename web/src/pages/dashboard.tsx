import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, type LinkPage, type ResponseOf, type SyncOutcome, type WorkspaceTag } from '../api.js';
import { Field, FormError } from '../components/field.js';
import { Layout } from '../components/layout.js';
import { BulkBar, type BulkOutcome, type Selection } from '../dashboard/bulk-bar.js';
import { CreateLinkForm } from '../dashboard/create-link-form.js';
import { ImportPanel } from '../dashboard/import-panel.js';
import { LinksTable } from '../dashboard/links-table.js';
import { listQuery, useListState, type ListState, type Status } from '../dashboard/list-state.js';
import '../dashboard/dashboard.css';
import { takeSyncOutcomes } from '../flash.js';
import { tagKey, tagNamesOf, useWorkspaceTags } from '../tags.js';
import { useApi } from '../use-api.js';

const PAGE_SIZE = 20;
const NOTHING_SELECTED: Selection = { ids: new Set(), allMatching: false };

/** `/app/dashboard`: the links of one workspace or all, filtered, sorted and paged from the address; selected and acted on in bulk. */
export function DashboardPage() {
  const [outcomes] = useState<SyncOutcome[] | undefined>(() => takeSyncOutcomes());
  const [state, change] = useListState();
  const [notice, setNotice] = useState<BulkOutcome>();
  const [selection, setSelection] = useState<Selection>(NOTHING_SELECTED);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const workspaces = useApi<ResponseOf<'listWorkspaces'>>('/api/v1/workspaces').data?.workspaces ?? [];
  const path = `/api/urls?${listQuery(state, PAGE_SIZE)}`;
  const links = useApi<LinkPage>(path);
  const workspaceTags = useWorkspaceTags(workspaces.map((w) => w.id));
  // The rows stay while the same list is asked again (after a change), never under another page,
  // filter or sort: until that answer comes the list says it is loading.
  const shownFor = useRef<string>();
  if (!links.loading && links.data) shownFor.current = path;
  const page = links.data && (!links.loading || shownFor.current === path) ? links.data : undefined;
  useEffect(() => setSelection(NOTHING_SELECTED), [path]);
  const reload = (message?: string) => { setNotice(message === undefined ? undefined : { message }); setSelection(NOTHING_SELECTED); void links.reload(); workspaceTags.reload(); };
  const select = (ids: number[], on: boolean) => {
    const next = new Set(selection.ids);
    for (const id of ids) if (on) next.add(id); else next.delete(id);
    setSelection({ ids: next, allMatching: false });
  };
  const undo = async () => {
    const step = notice?.undo;
    if (!step) return;
    try { reload(await step()); } catch (caught) { setNotice({ message: errorText(caught) }); }
  };

  return (
    <Layout title="Your links">
      {outcomes && <SyncReport outcomes={outcomes} />}
      <WorkspaceSwitcher state={state} workspaces={workspaces} onChange={(workspaceId) => change({ workspaceId })} />
      <CreateLinkForm workspaces={workspaces} workspaceId={state.workspaceId} tags={workspaceTags.tags} onCreated={(link) => reload(`Created ${link.shortUrl}`)} />
      <ImportPanel workspaces={workspaces} workspaceId={state.workspaceId} onImported={() => void links.reload()} />

      <section aria-labelledby="links-heading">
        <h2 id="links-heading">Links</h2>
        <Filters state={state} known={knownTags(workspaceTags.tags, state.workspaceId)} onApply={(filters) => { change(filters); void links.reload(); }} />
        <p role="status" class="notice" ref={noticeRef} tabIndex={-1}>
          {notice?.message}
          {notice?.undo && <> <button type="button" class="link" onClick={undo}>Undo</button></>}
        </p>
        <FormError message={links.error} />
        {page && page.total > page.items.length && page.items.length > 0 && page.items.every((link) => selection.ids.has(link.id)) && !selection.allMatching && (
          <p class="select-all-matching">
            All {page.items.length} links on this page are selected.{' '}
            <button type="button" class="link" onClick={() => setSelection({ ids: selection.ids, allMatching: true })}>Select all {page.total} matching links</button>
          </p>
        )}
        {page && (selection.ids.size > 0 || selection.allMatching) && (
          <BulkBar state={state} selection={selection} total={page.total} pageLinks={page.items} workspaces={workspaces} onStart={() => setNotice(undefined)}
            onDone={(outcome) => {
              setNotice(outcome); setSelection(NOTHING_SELECTED); void links.reload();
              // The bar that held the focus goes away with the selection: the outcome (and its Undo) takes it.
              requestAnimationFrame(() => noticeRef.current?.focus());
            }} />
        )}
        <div data-testid="links-region" aria-busy={links.loading}>
          {!page && links.loading && <p class="muted" data-testid="links-loading">Loading links…</p>}
          {page && (page.items.length === 0
            ? <p class="muted">No links match.</p>
            : <LinksTable links={page.items} tags={workspaceTags.tags} selected={selection.allMatching ? new Set(page.items.map((l) => l.id)) : selection.ids} onSelect={select} onChanged={reload}
                sort={state.sort} order={state.order} onSort={(sort, order) => change({ sort, order })} />)}
        </div>
        <Pager state={state} total={page?.total} shown={page?.items.length ?? 0} onPage={(p) => change({ page: p })} />
      </section>
    </Layout>
  );
}

function WorkspaceSwitcher({ state, workspaces, onChange }: { state: ListState; workspaces: ResponseOf<'listWorkspaces'>['workspaces']; onChange: (id: number | undefined) => void }) {
  if (workspaces.length < 2) return null;
  return (
    <div class="field workspace-switcher">
      <label for="workspace-switcher">Show links of</label>
      <select id="workspace-switcher" value={state.workspaceId === undefined ? '' : String(state.workspaceId)}
        onChange={(e) => onChange(e.currentTarget.value ? Number(e.currentTarget.value) : undefined)}>
        <option value="">All workspaces</option>
        {workspaces.map((w) => <option key={w.id} value={String(w.id)}>{w.is_personal ? 'Personal' : w.name}</option>)}
      </select>
    </div>
  );
}

/** The tags the filter suggests: the shown workspace's, or every workspace's names once each. */
function knownTags(tags: Map<number, WorkspaceTag[]>, workspaceId: number | undefined): WorkspaceTag[] {
  const all = workspaceId === undefined ? [...tags.values()].flat() : tags.get(workspaceId) ?? [];
  return [...new Map(all.map((tag) => [tagKey(tag.name), tag])).values()];
}

function Filters({ state, known, onApply }: { state: ListState; known: WorkspaceTag[]; onApply: (filters: Pick<ListState, 'q' | 'status' | 'mine' | 'tags'>) => void }) {
  const [search, setSearch] = useState(state.q);
  const [status, setStatus] = useState<Status>(state.status);
  const [mine, setMine] = useState(state.mine);
  const [tags, setTags] = useState(state.tags);
  // Back and Forward change the address under the form: the form follows it. Not on the first run,
  // which comes after the first paint: what was typed by then would be replaced by the address's.
  const mounted = useRef(false);
  useEffect(() => {
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    setSearch(state.q); setStatus(state.status); setMine(state.mine); setTags(state.tags);
  }, [state.q, state.status, state.mine, state.tags]);
  const apply = (event: Event) => {
    event.preventDefault();
    onApply({ q: search.trim(), status, mine, tags: tagNamesOf(tags).join(',') });
  };
  return (
    <form class="filters" role="search" onSubmit={apply}>
      <Field id="search" label="Search code or destination" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      <div class="field">
        <label for="status-filter">Status</label>
        <select id="status-filter" value={status} onChange={(e) => setStatus(e.currentTarget.value as Status)}>
          <option value="">All</option>
          <option value="ACTIVE">Active</option>
          <option value="EXPIRED">Expired</option>
          <option value="DELETED">Deleted</option>
        </select>
      </div>
      <div class="field">
        <label for="tag-filter">Tags (any of)</label>
        <input id="tag-filter" type="search" value={tags} list="tag-filter-known" autoComplete="off" onInput={(e) => setTags(e.currentTarget.value)} />
        <datalist id="tag-filter-known">{known.map((tag) => <option key={tag.id} value={tag.name} />)}</datalist>
      </div>
      <div class="field inline">
        <input id="mine-filter" type="checkbox" checked={mine} onChange={(e) => setMine(e.currentTarget.checked)} />
        <label for="mine-filter">Only links I created</label>
      </div>
      <button type="submit">Apply</button>
    </form>
  );
}

function Pager({ state, total, shown, onPage }: { state: ListState; total: number | undefined; shown: number; onPage: (page: number) => void }) {
  const first = (state.page - 1) * PAGE_SIZE + 1;
  const pages = total === undefined ? state.page : Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <nav class="pager" aria-label="Pages of links">
      <button type="button" class="secondary" disabled={state.page === 1} onClick={() => onPage(state.page - 1)}>Previous page</button>
      <span>Page {state.page} of {pages}</span>
      {total !== undefined && <span class="totals">{shown === 0 ? `0 of ${total}` : `${first}–${first + shown - 1} of ${total}`}</span>}
      <button type="button" class="secondary" disabled={total === undefined || state.page >= pages} onClick={() => onPage(state.page + 1)}>Next page</button>
    </nav>
  );
}

const OUTCOME_TEXT: Record<SyncOutcome['outcome'], string> = {
  claimed: 'moved to your account',
  created: 'recreated in your account',
  existing: 'already in your account',
  rejected: 'could not be moved',
};

function SyncReport({ outcomes }: { outcomes: SyncOutcome[] }) {
  return (
    <section class="card sync-report" aria-labelledby="sync-heading" role="status">
      <h2 id="sync-heading">Links from this browser</h2>
      <ul>
        {outcomes.map((o, i) => (
          <li key={`${o.shortCode}-${i}`} class={`outcome-${o.outcome}`}>
            {o.shortCode ? <><code>{o.shortCode}</code>: {OUTCOME_TEXT[o.outcome]}</> : OUTCOME_TEXT[o.outcome]}
            {o.reason && <> ({o.reason})</>}
          </li>
        ))}
      </ul>
    </section>
  );
}
