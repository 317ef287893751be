import type { ApiKeyScope } from './api-key-scopes.js';

export type UserRole = 'user' | 'admin';
export type WorkspaceRole = 'owner' | 'admin' | 'member';

/**
 * Who is calling, once authenticated. A JWT gives a user; an API key gives the user who made it,
 * confined to the key's workspace (`apiKeyWorkspaceId`), where it acts with the `admin` role, and
 * to its scopes (`apiKeyScopes`, ADR 0032). A JWT's principal has no scope limits (`null`).
 */
export interface Principal {
  readonly userId: number;
  readonly role: UserRole;
  readonly apiKeyWorkspaceId: number | null;
  readonly apiKeyScopes: readonly ApiKeyScope[] | null;
}
