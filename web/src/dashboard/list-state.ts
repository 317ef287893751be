import { useEffect, useState } from 'preact/hooks';

export type Status = '' | 'ACTIVE' | 'EXPIRED' | 'DELETED';
export type Sort = 'created' | 'clicks' | 'lastClick';
export type Order = 'desc' | 'asc';

/** Everything that decides which links the dashboard shows; it lives in the address, so reload, Back and a shared URL keep it. */
export interface ListState {
  readonly workspaceId: number | undefined;
  readonly q: string;
  readonly status: Status;
  readonly mine: boolean;
  /** Tag names separated by commas: links carrying any of them. */
  readonly tags: string;
  readonly sort: Sort;
  readonly order: Order;
  /** 1-based. */
  readonly page: number;
}

const STATUSES: readonly Status[] = ['ACTIVE', 'EXPIRED', 'DELETED'];
const SORTS: readonly Sort[] = ['created', 'clicks', 'lastClick'];

/** A hand-edited or stale address falls back to the defaults, one parameter at a time. */
export function readListState(search: string): ListState {
  const params = new URLSearchParams(search);
  const positive = (name: string) => {
    const value = Number(params.get(name));
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  };
  const status = params.get('status') as Status;
  const sort = params.get('sort') as Sort;
  return {
    workspaceId: positive('workspace'),
    q: params.get('q') ?? '',
    status: STATUSES.includes(status) ? status : '',
    mine: params.get('mine') === '1',
    tags: params.get('tags') ?? '',
    sort: SORTS.includes(sort) ? sort : 'created',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    page: positive('page') ?? 1,
  };
}

/** Only what differs from the defaults, so the plain dashboard keeps its plain address. */
export function listStateSearch(state: ListState): string {
  const params = new URLSearchParams();
  if (state.workspaceId !== undefined) params.set('workspace', String(state.workspaceId));
  if (state.q) params.set('q', state.q);
  if (state.status) params.set('status', state.status);
  if (state.mine) params.set('mine', '1');
  if (state.tags) params.set('tags', state.tags);
  if (state.sort !== 'created') params.set('sort', state.sort);
  if (state.order !== 'desc') params.set('order', state.order);
  if (state.page > 1) params.set('page', String(state.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The filters as the API spells them (list, "all matching", export). */
export function matchingOf(state: ListState): { workspaceId?: number; q?: string; status?: Exclude<Status, ''>; mine?: boolean; tags?: string } {
  return {
    ...(state.workspaceId !== undefined && { workspaceId: state.workspaceId }),
    ...(state.q && { q: state.q }),
    ...(state.status && { status: state.status }),
    ...(state.mine && { mine: true }),
    ...(state.tags && { tags: state.tags }),
  };
}

export function listQuery(state: ListState, pageSize: number): string {
  const params = new URLSearchParams({ limit: String(pageSize) });
  for (const [key, value] of Object.entries(matchingOf(state))) params.set(key, String(value));
  if (state.sort !== 'created') params.set('sort', state.sort);
  if (state.order !== 'desc') params.set('order', state.order);
  if (state.page > 1) params.set('offset', String((state.page - 1) * pageSize));
  return params.toString();
}

const listeners = new Set<() => void>();

/**
 * The list's state from the address, and a way to change it: each change is a history entry, so
 * Back walks through pages and filters as it does through pages of a site.
 */
export function useListState(): [ListState, (changes: Partial<ListState>) => void] {
  const [search, setSearch] = useState(location.search);
  useEffect(() => {
    const update = () => setSearch(location.search);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => { listeners.delete(update); window.removeEventListener('popstate', update); };
  }, []);
  const state = readListState(search);
  const change = (changes: Partial<ListState>) => {
    const next = { ...state, page: 1, ...changes };
    const target = `${location.pathname}${listStateSearch(next)}`;
    if (target === `${location.pathname}${location.search}`) return;
    history.pushState(null, '', target);
    listeners.forEach((listener) => listener());
  };
  return [state, change];
}
