import type { Selectable } from 'kysely';
import { DEFAULT_DOMAIN, type LinkStatus, type RedirectStatus } from '../../src/core/link.js';
import type { Composition as AppDeps } from '../../src/deps.js';
import type { CleanupRunReport, CleanupRunResult } from '../../src/jobs/cleanup-job.js';
import type { CleanupRunRow, LinkArchiveRow, LinkRow } from '../../src/storage/schema.js';
import { insertLink, setLinkColumns } from './links.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Settings that let a test run the cleanup job as often as it likes on the frozen clock. */
export const QUICK_CLEANUP = { CLEANUP_BATCH_PAUSE: '0', CLEANUP_LOCK_AT_LEAST: '0' } as const;

export interface LinkState {
  readonly status?: LinkStatus;
  readonly expiresAt?: number | null;
  readonly deletedAt?: number | null;
  readonly ownerId?: number | null;
}

/** An anonymous (TEMPORARY) link, or an owned one with `ownerId`, forced into the given state. */
export async function linkInState(deps: AppDeps, state: LinkState): Promise<Selectable<LinkRow>> {
  const owned = state.ownerId !== undefined && state.ownerId !== null;
  const link = await insertLink(deps, {
    linkType: owned ? 'PERMANENT' : 'TEMPORARY',
    expiresAt: state.expiresAt === undefined ? deps.clock.now() + 8 * HOUR : state.expiresAt,
  });
  await setLinkColumns(deps, link.id, {
    status: state.status ?? 'ACTIVE',
    deleted_at: state.deletedAt ?? null,
  });
  if (owned) {
    await deps.database.db.updateTable('links').set({ owner_id: state.ownerId! }).where('id', '=', link.id).execute();
  }
  return linkRow(deps, link.id);
}

let owners = 0;

/** A user row to own links (no workspace: the cleanup job does not look at workspaces). */
export async function ownerUser(deps: AppDeps): Promise<number> {
  owners += 1;
  const row = await deps.database.db.insertInto('users').values({
    email: `owner-${process.pid}-${owners}@example.test`, password_hash: 'not-a-hash', role: 'user', created_at: deps.clock.now(),
  }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** `count` anonymous links that expired `ago` ms before now (still ACTIVE: not marked yet). */
export async function expiredLinks(deps: AppDeps, count: number, ago: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await linkInState(deps, { expiresAt: deps.clock.now() - ago - i })).id);
  return ids;
}

/** The status the in-process cache holds for a code: undefined if nothing, 'missing' for a negative entry. */
export function cachedStatus(deps: AppDeps, code: string): RedirectStatus | 'missing' | undefined {
  const entry = deps.localCache.get(DEFAULT_DOMAIN, code);
  if (entry === undefined) return undefined;
  return entry === null ? 'missing' : entry.status;
}

export async function linkRow(deps: AppDeps, id: number): Promise<Selectable<LinkRow>> {
  return deps.database.db.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function linkIds(deps: AppDeps): Promise<number[]> {
  const rows = await deps.database.db.selectFrom('links').select('id').orderBy('id').execute();
  return rows.map((row) => Number(row.id));
}

export async function statusOf(deps: AppDeps, id: number): Promise<LinkStatus | undefined> {
  const row = await deps.database.db.selectFrom('links').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}

export async function archiveRows(deps: AppDeps): Promise<Selectable<LinkArchiveRow>[]> {
  return deps.database.db.selectFrom('links_archive').selectAll().orderBy('id').execute();
}

export async function runRows(deps: AppDeps): Promise<Selectable<CleanupRunRow>[]> {
  return deps.database.db.selectFrom('cleanup_runs').selectAll().orderBy('id').execute();
}

/** The finished run of a result, failing the test when the job did not run. */
export function ran(result: CleanupRunResult): CleanupRunReport {
  if (result.outcome !== 'ran') throw new Error(`expected the cleanup job to run, got ${JSON.stringify(result)}`);
  return result;
}

/** A promise the test opens by hand, to hold a run inside an observer (cleanup-observer.ts). */
export function gate(): { readonly opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  return { opened, open };
}

/** Polls until `check` is true (real time), failing after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
