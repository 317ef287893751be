import type { User, WorkspaceSummary } from '../core/account-ports.js';
import { LinkforgeError } from '../core/errors.js';
import type { AccountServices } from './account-services.js';
import { normalizeEmail } from './password-rules.js';

/** Every user, for an operator (`linkforge user list`); the HTTP API has no such listing. */
export function listUsers(deps: Pick<AccountServices, 'store'>): Promise<User[]> {
  return deps.store.listUsers();
}

/** Every workspace with its owners and member count, for an operator (`linkforge workspace list`). */
export function listWorkspaces(deps: Pick<AccountServices, 'store'>): Promise<WorkspaceSummary[]> {
  return deps.store.listWorkspaces();
}

/** The user with this email, for an operator's command that names them (`linkforge user disable EMAIL`). */
export async function getUserByEmailOrThrow(deps: Pick<AccountServices, 'store'>, email: string): Promise<User> {
  const found = await deps.store.findUserByEmail(normalizeEmail(email));
  if (!found) throw new LinkforgeError('user_not_found');
  const { passwordHash: _hash, ...user } = found;
  return user;
}
