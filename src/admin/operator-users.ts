import type { User } from '../core/account-ports.js';
import { LinkforgeError } from '../core/errors.js';
import { decodeCursor, encodeCursor } from '../links/list-links.js';
import type { AdminServices } from './admin-services.js';

export const USERS_PAGE_SIZE = 50;

export interface UserPage {
  readonly items: User[];
  readonly nextCursor: string | null;
}

const noSuchUser = () => new LinkforgeError('user_not_found', 'No user has this id.');

/** Every user, newest first, or those whose email contains `search`. */
export async function searchUsers(deps: Pick<AdminServices, 'store'>, query: { search?: string; cursor?: string; limit?: number }): Promise<UserPage> {
  const limit = Math.min(Math.max(query.limit ?? USERS_PAGE_SIZE, 1), 100);
  const rows = await deps.store.searchUsers({
    search: query.search?.trim() || undefined,
    beforeId: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    limit: limit + 1,
  });
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}

/**
 * A disabled user cannot sign in, and every token and API key of theirs stops working at its next
 * request (both are checked against the account on every request). Their links keep redirecting:
 * a link is disabled on its own. An operator cannot disable themselves, so an instance is never
 * left without the admin who could undo it (`operatorId` is null from the command line).
 */
export async function disableUser(deps: Pick<AdminServices, 'store' | 'clock'>, operatorId: number | null, userId: number): Promise<User> {
  if (userId === operatorId) throw new LinkforgeError('user_disable_self');
  const user = await deps.store.setUserDisabled(userId, deps.clock.now());
  if (!user) throw noSuchUser();
  return user;
}

export async function enableUser(deps: Pick<AdminServices, 'store'>, userId: number): Promise<User> {
  const user = await deps.store.setUserDisabled(userId, null);
  if (!user) throw noSuchUser();
  return user;
}
