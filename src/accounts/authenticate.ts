import { LinkforgeError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import { hashSecret } from '../core/secret-token.js';
import type { AccountServices } from './account-services.js';

export const API_KEY_PREFIX = 'lfk_';
/** last_used_at is refreshed at most this often, so a busy script does not write on every call. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * A JWT's principal: the token must verify, its subject must still exist, and it must carry the
 * user's current session counter (a sign-out since it was issued refuses it, ADR 0024).
 */
export async function authenticateUserToken(deps: AccountServices, token: string): Promise<Principal> {
  const { userId, sessionEpoch } = await deps.tokens.verify(token);
  const user = await deps.store.findUserById(userId);
  if (!user) throw new LinkforgeError('authentication_required', 'The bearer token names no existing user.');
  if (user.disabledAt !== null) throw new LinkforgeError('authentication_required', 'This account has been disabled by the operator of this service.');
  if (user.sessionEpoch !== sessionEpoch) throw new LinkforgeError('authentication_required', 'This session was signed out; sign in again.');
  return { userId: user.id, role: user.role, apiKeyWorkspaceId: null, apiKeyScopes: null };
}

/**
 * An API key's principal: the user who made it, confined to its workspace. Its global role is
 * always `user`, so a key never carries its maker's site-admin rights. A key stops working when its
 * maker leaves the workspace or is disabled, and once it expires (answered like an unknown key, ADR 0032).
 */
export async function authenticateApiKey(deps: AccountServices, secret: string): Promise<Principal> {
  const owner = secret.startsWith(API_KEY_PREFIX) ? await deps.store.findApiKeyOwner(hashSecret(secret)) : undefined;
  const now = deps.clock.now();
  if (!owner || (owner.expiresAt !== null && now >= owner.expiresAt)) throw new LinkforgeError('authentication_required', 'The API key is unknown, revoked or expired.');
  if (owner.lastUsedAt === null || now - owner.lastUsedAt >= TOUCH_INTERVAL_MS) {
    await deps.store.touchApiKey(owner.keyId, now);
  }
  return { userId: owner.userId, role: 'user', apiKeyWorkspaceId: owner.workspaceId, apiKeyScopes: owner.scopes };
}
