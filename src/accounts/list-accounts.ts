import type { User, WorkspaceSummary } from '../core/account-ports.js';
import type { AccountServices } from './account-services.js';

/** Every user, for an operator (`linkforge user list`); the HTTP API has no such listing. */
export function listUsers(deps: Pick<AccountServices, 'store'>): Promise<User[]> {
  return deps.store.listUsers();
}

/** Every workspace with its owners and member count, for an operator (`linkforge workspace list`). */
export function listWorkspaces(deps: Pick<AccountServices, 'store'>): Promise<WorkspaceSummary[]> {
  return deps.store.listWorkspaces();
}
