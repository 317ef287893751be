import type { Principal } from '../core/principal.js';
import type { AccountServices } from './account-services.js';
import type { ApiKey } from '../core/account-ports.js';
import { MANAGER_ROLES } from './add-member.js';

/** Owners and admins see the workspace's keys (never a secret); a key may list its own workspace's keys. */
export async function listApiKeys(deps: AccountServices, principal: Principal, workspaceId: number): Promise<ApiKey[]> {
  await deps.workspaces.requireRole(principal, workspaceId, MANAGER_ROLES);
  return deps.store.listApiKeys(workspaceId);
}
