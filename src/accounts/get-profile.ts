import { LinkforgeError } from '../core/errors.js';
import type { AccountServices } from './account-services.js';
import type { Membership, User } from '../core/account-ports.js';

export interface Profile {
  readonly user: User;
  readonly workspaces: Membership[];
}

export async function getProfile(deps: AccountServices, userId: number): Promise<Profile> {
  const user = await deps.store.findUserById(userId);
  if (!user) throw new LinkforgeError('authentication_required', 'The bearer token names no existing user.');
  return { user, workspaces: await deps.store.listMemberships(userId) };
}
