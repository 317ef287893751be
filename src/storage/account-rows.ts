import type { Selectable } from 'kysely';
import type { WorkspaceRole } from '../core/principal.js';
import type { ApiKey, Membership, User } from '../core/account-ports.js';
import { scopesFromText } from '../core/api-key-scopes.js';
import type { ApiKeyRow, UserRow } from './schema.js';

// Rows of the account tables as the account ports' types (account-store.ts, operator-store.ts).

export function userRowToUser(row: Pick<Selectable<UserRow>, typeof USER_COLUMNS[number]>): User {
  const disabledAt = row.disabled_at === null ? null : Number(row.disabled_at);
  return { id: Number(row.id), email: row.email, role: row.role, createdAt: Number(row.created_at), disabledAt };
}

export function apiKeyRowToApiKey(row: Omit<Selectable<ApiKeyRow>, 'secret_hash' | 'created_by'>): ApiKey {
  return {
    id: Number(row.id), workspaceId: Number(row.workspace_id), name: row.name, prefix: row.prefix,
    scopes: scopesFromText(row.scopes), expiresAt: optionalTime(row.expires_at),
    createdAt: Number(row.created_at), lastUsedAt: optionalTime(row.last_used_at),
  };
}

/** A nullable time column; PostgreSQL's bigint may come back as a string. */
export function optionalTime(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

export interface MembershipRow { id: number; name: string; is_personal: number; created_at: number; role: WorkspaceRole }

export function membershipRowToMembership(row: MembershipRow): Membership {
  return {
    id: Number(row.id), name: row.name, isPersonal: Number(row.is_personal) === 1,
    createdAt: Number(row.created_at), role: row.role,
  };
}

export const USER_COLUMNS = ['id', 'email', 'role', 'created_at', 'disabled_at'] as const;
