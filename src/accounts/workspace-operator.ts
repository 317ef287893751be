import { LinkforgeError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import type { AccountServices } from './account-services.js';

/**
 * The operator (the CLI) acts with the operator's authority, not a user's: in one workspace it
 * acts for that workspace's first owner, with the admin role an API key has there (so the use
 * cases' own membership checks still run, and a workspace that does not exist is `workspace_not_found`).
 */
export async function workspaceOperator(deps: Pick<AccountServices, 'store'>, workspaceId: number): Promise<Principal> {
  const owner = (await deps.store.listMembers(workspaceId)).find((member) => member.role === 'owner');
  if (owner === undefined) throw new LinkforgeError('workspace_not_found', `No workspace has the id ${workspaceId}.`);
  return { userId: owner.userId, role: 'user', apiKeyWorkspaceId: workspaceId, apiKeyScopes: null };
}
