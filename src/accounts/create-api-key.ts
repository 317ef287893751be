import { ValidationError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import { hashSecret, newSecret } from '../core/secret-token.js';
import type { AccountServices } from './account-services.js';
import type { ApiKey } from '../core/account-ports.js';
import { MANAGER_ROLES } from './add-member.js';
import { API_KEY_PREFIX } from './authenticate.js';
import { refuseApiKey } from './workspace-access.js';

/** Enough of the secret to tell keys apart in a listing, far too little to guess the rest (35 chars stay secret). */
const VISIBLE_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export interface CreatedApiKey extends ApiKey {
  /** `lfk_` + 43 base64url characters; shown once, only its SHA-256 hash is stored. */
  readonly key: string;
}

export async function createApiKey(deps: AccountServices, principal: Principal, workspaceId: number, name: string): Promise<CreatedApiKey> {
  await deps.workspaces.requireRole(principal, workspaceId, MANAGER_ROLES);
  refuseApiKey(principal, 'create API keys');
  if (name.trim().length === 0) throw new ValidationError('api_key_name_invalid');
  const key = newSecret(API_KEY_PREFIX);
  const stored = await deps.store.insertApiKey({
    workspaceId,
    name: name.trim(),
    prefix: key.slice(0, VISIBLE_PREFIX_LENGTH),
    secretHash: hashSecret(key),
    createdBy: principal.userId,
    createdAt: deps.clock.now(),
  });
  return { ...stored, key };
}
