import { LinkforgeError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import type { AccountServices } from './account-services.js';
import { MANAGER_ROLES } from './add-member.js';
import { refuseApiKey } from './workspace-access.js';

export async function revokeApiKey(deps: AccountServices, principal: Principal, workspaceId: number, keyId: number): Promise<void> {
  await deps.workspaces.requireRole(principal, workspaceId, MANAGER_ROLES);
  refuseApiKey(principal, 'revoke API keys');
  if (!await deps.store.deleteApiKey(workspaceId, keyId)) throw new LinkforgeError('api_key_not_found');
}
