import type { ApiKeyScope } from './api-key-scopes.js';
import type { UserRole, WorkspaceRole } from './principal.js';

/** Domain types of the accounts module and the port its store implements. Times are epoch milliseconds. */
export interface User {
  readonly id: number;
  readonly email: string;
  readonly role: UserRole;
  readonly createdAt: number;
  /** Set while the service's operator has disabled the account: it cannot sign in, and its tokens and keys stop working. */
  readonly disabledAt: number | null;
}

/** A user as the authentication of a session token reads them: with the sign-out counter tokens must match. */
export interface SessionUser extends User {
  readonly sessionEpoch: number;
}

export interface UserWithPasswordHash extends SessionUser {
  readonly passwordHash: string;
}

export interface Workspace {
  readonly id: number;
  readonly name: string;
  readonly isPersonal: boolean;
  readonly createdAt: number;
}

/** A workspace as an operator lists it: with its owners' emails and how many members it has. */
export interface WorkspaceSummary extends Workspace {
  readonly ownerEmails: readonly string[];
  readonly memberCount: number;
}

/** A workspace as seen by one of its members. */
export interface Membership extends Workspace {
  readonly role: WorkspaceRole;
}

export interface Member {
  readonly workspaceId: number;
  readonly userId: number;
  readonly email: string;
  readonly role: WorkspaceRole;
  readonly createdAt: number;
}

/** An API key as listed: never the secret nor its hash. */
export interface ApiKey {
  readonly id: number;
  readonly workspaceId: number;
  readonly name: string;
  readonly prefix: string;
  readonly scopes: readonly ApiKeyScope[];
  /** After this time the key authenticates no more, like a revoked one; null: never. */
  readonly expiresAt: number | null;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

/** What an API key authenticates as: its creator, confined to its workspace. */
export interface ApiKeyOwner {
  readonly keyId: number;
  readonly workspaceId: number;
  readonly userId: number;
  readonly scopes: readonly ApiKeyScope[];
  readonly expiresAt: number | null;
  readonly lastUsedAt: number | null;
}

export interface NewUser {
  readonly email: string;
  readonly passwordHash: string;
  readonly role: UserRole;
  readonly createdAt: number;
}

export type CreateUserResult =
  | { readonly ok: true; readonly user: User; readonly personalWorkspaceId: number }
  | { readonly ok: false; readonly conflict: 'email' };

export type RemoveMemberResult = 'removed' | 'not_member' | 'last_owner';

/**
 * Persistence of users, workspaces, members and API keys. Unique violations come back as values
 * (never pre-checked); multi-row changes are atomic.
 */
export interface AccountStore {
  /** The user, their personal workspace and their owner membership, in one transaction. */
  createUser(user: NewUser, personalWorkspaceName: string): Promise<CreateUserResult>;
  findUserById(id: number): Promise<SessionUser | undefined>;
  /** Raises the user's session counter by one, so every token issued before stops working; false for no such user. */
  endSessions(userId: number): Promise<boolean>;
  /** Every user, ascending id (the operator's `linkforge user list`). */
  listUsers(): Promise<User[]>;
  /** Every workspace, ascending id (the operator's `linkforge workspace list`). */
  listWorkspaces(): Promise<WorkspaceSummary[]>;
  findUserByEmail(email: string): Promise<UserWithPasswordHash | undefined>;
  createWorkspace(name: string, ownerId: number, createdAt: number): Promise<Membership>;
  listMemberships(userId: number): Promise<Membership[]>;
  findMembership(workspaceId: number, userId: number): Promise<Membership | undefined>;
  findPersonalWorkspaceId(userId: number): Promise<number | undefined>;
  listMembers(workspaceId: number): Promise<Member[]>;
  /** false when the user is already a member. */
  addMember(workspaceId: number, userId: number, role: WorkspaceRole, createdAt: number): Promise<boolean>;
  /** Refuses to remove the last owner, atomically. */
  removeMember(workspaceId: number, userId: number): Promise<RemoveMemberResult>;
  insertApiKey(key: Omit<ApiKey, 'id' | 'lastUsedAt'> & { secretHash: string; createdBy: number }): Promise<ApiKey>;
  listApiKeys(workspaceId: number): Promise<ApiKey[]>;
  /** false when no such key exists in that workspace. */
  deleteApiKey(workspaceId: number, keyId: number): Promise<boolean>;
  /** The key with this hash, while its creator is still a member of its workspace and not disabled. */
  findApiKeyOwner(secretHash: string): Promise<ApiKeyOwner | undefined>;
  touchApiKey(keyId: number, usedAt: number): Promise<void>;
}
