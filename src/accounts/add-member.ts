import { LinkforgeError, ValidationError } from '../core/errors.js';
import type { Principal, WorkspaceRole } from '../core/principal.js';
import type { AccountServices } from './account-services.js';
import type { Member } from '../core/account-ports.js';
import { normalizeEmail } from './password-rules.js';
import { refuseApiKey } from './workspace-access.js';

export const MANAGER_ROLES = ['owner', 'admin'] as const;

/** Owners and admins add registered users as `admin` or `member`; ownership is only ever given at creation. */
export async function addMember(deps: AccountServices, principal: Principal, workspaceId: number,
  input: { email: string; role: WorkspaceRole }): Promise<Member> {
  await deps.workspaces.requireRole(principal, workspaceId, MANAGER_ROLES);
  refuseApiKey(principal, 'manage members');
  if (input.role === 'owner') {
    throw new ValidationError('owner_role_not_allowed', 'Members can be added as admin or member; a workspace\'s owners are fixed at creation.');
  }
  const user = await deps.store.findUserByEmail(normalizeEmail(input.email));
  if (!user) throw new LinkforgeError('user_not_found');
  const createdAt = deps.clock.now();
  if (!await deps.store.addMember(workspaceId, user.id, input.role, createdAt)) throw new LinkforgeError('member_exists');
  return { workspaceId, userId: user.id, email: user.email, role: input.role, createdAt };
}

export async function listMembers(deps: AccountServices, principal: Principal, workspaceId: number): Promise<Member[]> {
  await deps.workspaces.requireRole(principal, workspaceId, ['owner', 'admin', 'member']);
  return deps.store.listMembers(workspaceId);
}
