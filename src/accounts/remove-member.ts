import { LinkforgeError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import type { AccountServices } from './account-services.js';
import { refuseApiKey } from './workspace-access.js';

/**
 * Owners remove anyone; admins remove admins and members; anyone may leave. The last owner stays
 * (checked atomically by the store).
 */
export async function removeMember(deps: AccountServices, principal: Principal, workspaceId: number, userId: number): Promise<void> {
  const callerRole = await deps.workspaces.requireRole(principal, workspaceId, ['owner', 'admin', 'member']);
  refuseApiKey(principal, 'manage members');
  const leaving = userId === principal.userId;
  if (!leaving && callerRole === 'member') throw new LinkforgeError('permission_denied', 'Only owners and admins can remove members.');
  const target = await deps.store.findMembership(workspaceId, userId);
  if (!target) throw new LinkforgeError('member_not_found');
  if (!leaving && target.role === 'owner' && callerRole !== 'owner') throw new LinkforgeError('permission_denied', 'Only owners can remove an owner.');
  const result = await deps.store.removeMember(workspaceId, userId);
  if (result === 'last_owner') throw new LinkforgeError('workspace_owner_required');
  if (result === 'not_member') throw new LinkforgeError('member_not_found');
}
