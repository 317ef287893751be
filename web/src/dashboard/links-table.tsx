import { useState } from 'preact/hooks';
import type { WorkspaceTag } from '../api.js';
import type { Order, Sort } from './list-state.js';
import { EditRow, LinkRow, type ListedLink } from './link-row.js';

interface SortProps {
  sort: Sort;
  order: Order;
  onSort: (sort: Sort, order: Order) => void;
}

/** A column header that sorts: the first click newest or most first, the next reverses. */
function SortHeader({ label, column, sort, order, onSort }: SortProps & { label: string; column: Sort }) {
  const active = sort === column;
  const next: Order = active && order === 'desc' ? 'asc' : 'desc';
  return (
    <th scope="col" aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <button type="button" class="sort" onClick={() => onSort(column, next)}>
        {label}<span aria-hidden="true" class="sort-mark">{active ? (order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}

const SORT_CHOICES: ReadonlyArray<[string, string]> = [
  ['created desc', 'Newest first'], ['created asc', 'Oldest first'], ['clicks desc', 'Most clicks'],
  ['clicks asc', 'Fewest clicks'], ['lastClick desc', 'Latest click'], ['lastClick asc', 'Earliest click'],
];

/** The same orders for phone width, where the table's header row is not shown. */
function SortSelect({ sort, order, onSort }: SortProps) {
  return (
    <div class="field sort-select">
      <label for="sort-select">Sort by</label>
      <select id="sort-select" value={`${sort} ${order}`} onChange={(e) => {
        const [column, direction] = e.currentTarget.value.split(' ') as [Sort, Order];
        onSort(column, direction);
      }}>
        {SORT_CHOICES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
      </select>
    </div>
  );
}

interface TableProps extends SortProps {
  links: ListedLink[];
  /** Each workspace's tags: the chips' colours and the edit form's suggestions. */
  tags: Map<number, WorkspaceTag[]>;
  selected: ReadonlySet<number>;
  onSelect: (ids: number[], selected: boolean) => void;
  onChanged: (message?: string) => void;
}

export function LinksTable({ links, tags, selected, onSelect, onChanged, ...sorting }: TableProps) {
  const [editing, setEditing] = useState<number>();
  const allOnPage = links.length > 0 && links.every((link) => selected.has(link.id));
  return (
    <>
    <div class="list-toolbar">
      <p class="select-page field inline">
        <input id="select-page" type="checkbox" checked={allOnPage} onChange={(e) => onSelect(links.map((link) => link.id), e.currentTarget.checked)} />
        <label for="select-page">Select every link on this page</label>
      </p>
      <SortSelect {...sorting} />
    </div>
    <div class="table-wrap" role="region" aria-labelledby="links-heading" tabIndex={0}>
      <table class="links dense">
        <thead>
          <tr>
            <th scope="col" class="select"><span class="visually-hidden">Selected</span></th>
            <th scope="col">Short link</th><th scope="col">Destination</th><th scope="col">Status</th>
            <SortHeader label="Created" column="created" {...sorting} />
            <SortHeader label="Clicks" column="clicks" {...sorting} />
            <SortHeader label="Last click" column="lastClick" {...sorting} />
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {links.map((link) => editing === link.id
            ? <EditRow key={link.id} link={link} known={tags.get(link.workspaceId ?? 0)} onDone={(message) => { setEditing(undefined); if (message) onChanged(message); }} />
            : <LinkRow key={link.id} link={link} known={tags.get(link.workspaceId ?? 0)} selected={selected.has(link.id)} onSelect={(on) => onSelect([link.id], on)}
                onEdit={() => setEditing(link.id)} onChanged={onChanged} />)}
        </tbody>
      </table>
    </div>
    </>
  );
}
