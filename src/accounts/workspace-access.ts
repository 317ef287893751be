import { LinkforgeError } from '../core/errors.js';
import type { Principal, WorkspaceRole } from '../core/principal.js';
import type { AccountStore } from '../core/account-ports.js';

const MAX_REMEMBERED_USERS = 10_000;

/**
 * Who may act in which workspace: `accounts.workspaces`, also handed to the links services.
 *
 * - `roleIn(principal, workspaceId)`: the caller's role, or undefined for a non-member, whom
 *   callers answer with 404 (never 403: no existence oracle). An API-key principal is `admin` in
 *   its key's workspace and a stranger everywhere else.
 * - `personalWorkspaceId(userId)`: every user has exactly one, made at registration.
 * - `workspaceIdsOf(principal)`: every workspace the caller may act in.
 * - `requireRole(principal, workspaceId, allowed)`: the role, or `workspace_not_found` / `permission_denied`.
 */
export class WorkspaceAccess {
  /**
   * Personal workspaces by user: one is made with its user, no code deletes or changes either, and
   * ids are never reused (AUTOINCREMENT, identity columns), so the answer never goes stale, whichever
   * process wrote since. It saves a read on every owned create. Bounded: cleared when full.
   */
  private readonly personal = new Map<number, number>();

  constructor(private readonly store: AccountStore) {}

  async roleIn(principal: Principal, workspaceId: number): Promise<WorkspaceRole | undefined> {
    if (principal.apiKeyWorkspaceId !== null) return principal.apiKeyWorkspaceId === workspaceId ? 'admin' : undefined;
    return (await this.store.findMembership(workspaceId, principal.userId))?.role;
  }

  async personalWorkspaceId(userId: number): Promise<number> {
    const known = this.personal.get(userId);
    if (known !== undefined) return known;
    const id = await this.store.findPersonalWorkspaceId(userId);
    if (id === undefined) throw new LinkforgeError('workspace_not_found', 'This user has no personal workspace.');
    if (this.personal.size >= MAX_REMEMBERED_USERS) this.personal.clear();
    this.personal.set(userId, id);
    return id;
  }

  async workspaceIdsOf(principal: Principal): Promise<number[]> {
    if (principal.apiKeyWorkspaceId !== null) return [principal.apiKeyWorkspaceId];
    return (await this.store.listMemberships(principal.userId)).map((membership) => membership.id);
  }

  async requireRole(principal: Principal, workspaceId: number, allowed: readonly WorkspaceRole[]): Promise<WorkspaceRole> {
    const role = await this.roleIn(principal, workspaceId);
    if (role === undefined) throw new LinkforgeError('workspace_not_found');
    if (!allowed.includes(role)) throw new LinkforgeError('permission_denied', `This needs the ${allowed.join(' or ')} role in the workspace; yours is ${role}.`);
    return role;
  }
}

/**
 * Members and keys are managed by signed-in people only: a leaked key must not be able to mint
 * more keys or add its thief as a member, which would outlive the key's revocation.
 */
export function refuseApiKey(principal: Principal, action: string): void {
  if (principal.apiKeyWorkspaceId !== null) throw new LinkforgeError('permission_denied', `API keys cannot ${action}; sign in to do it.`);
}
