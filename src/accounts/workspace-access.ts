import { NotFoundError } from '../core/errors.js';
import type { Principal, WorkspaceRole } from '../core/principal.js';
import { ForbiddenError } from './account-errors.js';
import type { AccountStore } from './account-types.js';

/**
 * Who may act in which workspace. Available as `deps.workspaces` (also `deps.accounts.workspaces`).
 *
 * - `roleIn(principal, workspaceId)`: the caller's role, or undefined for a non-member, whom
 *   callers answer with 404 (never 403: no existence oracle). An API-key principal is `admin` in
 *   its key's workspace and a stranger everywhere else.
 * - `personalWorkspaceId(userId)`: every user has exactly one, made at registration.
 * - `workspaceIdsOf(principal)`: every workspace the caller may act in.
 * - `requireRole(principal, workspaceId, allowed)`: the role, or NotFoundError / ForbiddenError.
 */
export class WorkspaceAccess {
  constructor(private readonly store: AccountStore) {}

  async roleIn(principal: Principal, workspaceId: number): Promise<WorkspaceRole | undefined> {
    if (principal.apiKeyWorkspaceId !== null) return principal.apiKeyWorkspaceId === workspaceId ? 'admin' : undefined;
    return (await this.store.findMembership(workspaceId, principal.userId))?.role;
  }

  async personalWorkspaceId(userId: number): Promise<number> {
    const id = await this.store.findPersonalWorkspaceId(userId);
    if (id === undefined) throw new NotFoundError('This user has no personal workspace.');
    return id;
  }

  async workspaceIdsOf(principal: Principal): Promise<number[]> {
    if (principal.apiKeyWorkspaceId !== null) return [principal.apiKeyWorkspaceId];
    return (await this.store.listMemberships(principal.userId)).map((membership) => membership.id);
  }

  async requireRole(principal: Principal, workspaceId: number, allowed: readonly WorkspaceRole[]): Promise<WorkspaceRole> {
    const role = await this.roleIn(principal, workspaceId);
    if (role === undefined) throw new NotFoundError('No such workspace.');
    if (!allowed.includes(role)) throw new ForbiddenError(`This needs the ${allowed.join(' or ')} role in the workspace; yours is ${role}.`);
    return role;
  }
}

/**
 * Members and keys are managed by signed-in people only: a leaked key must not be able to mint
 * more keys or add its thief as a member, which would outlive the key's revocation.
 */
export function refuseApiKey(principal: Principal, action: string): void {
  if (principal.apiKeyWorkspaceId !== null) throw new ForbiddenError(`API keys cannot ${action}; sign in to do it.`);
}
