import { LinkforgeError, ValidationError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import type { AccountServices } from './account-services.js';
import type { Membership } from '../core/account-ports.js';

/** A shared workspace with the caller as its owner. An API key is confined to its workspace, so it cannot make another. */
export async function createWorkspace(deps: AccountServices, principal: Principal, name: string): Promise<Membership> {
  if (principal.apiKeyWorkspaceId !== null) throw new LinkforgeError('permission_denied', 'API keys act only inside their own workspace; sign in to create workspaces.');
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new ValidationError('workspace_name_invalid');
  return deps.store.createWorkspace(trimmed, principal.userId, deps.clock.now());
}

/** The workspaces the caller may act in; for an API key, just its own. */
export async function listWorkspaces(deps: AccountServices, principal: Principal): Promise<Membership[]> {
  const memberships = await deps.store.listMemberships(principal.userId);
  if (principal.apiKeyWorkspaceId === null) return memberships;
  return memberships.filter((m) => m.id === principal.apiKeyWorkspaceId).map((m) => ({ ...m, role: 'admin' as const }));
}
