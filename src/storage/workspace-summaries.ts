import type { WorkspaceSummary } from '../core/account-ports.js';

/** One row per workspace and member (none for a workspace without members), in workspace order. */
export interface WorkspaceMemberRow {
  readonly id: number | bigint;
  readonly name: string;
  readonly is_personal: number | boolean;
  readonly created_at: number | bigint | string;
  readonly role: string | null;
  readonly email: string | null;
}

/** Folds the workspace × member rows into one summary a workspace: its owners and how many members. */
export function summarizeWorkspaces(rows: readonly WorkspaceMemberRow[]): WorkspaceSummary[] {
  const byId = new Map<number, WorkspaceSummary & { ownerEmails: string[]; memberCount: number }>();
  for (const row of rows) {
    const id = Number(row.id);
    const workspace = byId.get(id)
      ?? { id, name: row.name, isPersonal: Number(row.is_personal) === 1, createdAt: Number(row.created_at), ownerEmails: [], memberCount: 0 };
    byId.set(id, workspace);
    if (row.email === null) continue;
    workspace.memberCount += 1;
    if (row.role === 'owner') workspace.ownerEmails.push(row.email);
  }
  return [...byId.values()];
}
