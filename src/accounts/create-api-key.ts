import { ValidationError } from '../core/errors.js';
import { API_KEY_SCOPES, canonicalScopes, type ApiKeyScope } from '../core/api-key-scopes.js';
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

/** What a new key is given; without scopes it gets all of them, the power keys had before scopes (ADR 0032). */
export interface NewApiKey {
  readonly name: string;
  readonly scopes?: readonly ApiKeyScope[];
  readonly expiresAt?: number | null;
}

export async function createApiKey(deps: AccountServices, principal: Principal, workspaceId: number, request: NewApiKey): Promise<CreatedApiKey> {
  await deps.workspaces.requireRole(principal, workspaceId, MANAGER_ROLES);
  refuseApiKey(principal, 'create API keys');
  const name = request.name.trim();
  if (name.length === 0) throw new ValidationError('api_key_name_invalid');
  const scopes = canonicalScopes(request.scopes ?? API_KEY_SCOPES);
  if (scopes.length === 0) throw new ValidationError('validation_failed', 'scopes must name at least one scope.', { field: 'scopes' });
  const now = deps.clock.now();
  const expiresAt = request.expiresAt ?? null;
  if (expiresAt !== null && expiresAt <= now) throw new ValidationError('api_key_expiry_invalid', 'expiresAt must be a time in the future.', { field: 'expiresAt' });
  const key = newSecret(API_KEY_PREFIX);
  const stored = await deps.store.insertApiKey({
    workspaceId,
    name,
    prefix: key.slice(0, VISIBLE_PREFIX_LENGTH),
    scopes,
    expiresAt,
    secretHash: hashSecret(key),
    createdBy: principal.userId,
    createdAt: now,
  });
  return { ...stored, key };
}
