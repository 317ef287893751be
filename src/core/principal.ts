export type UserRole = 'user' | 'admin';
export type WorkspaceRole = 'owner' | 'admin' | 'member';

/**
 * Who is calling, once authenticated. A JWT gives a user; an API key gives the user who made it,
 * confined to the key's workspace (`apiKeyWorkspaceId`), where it acts with the `admin` role.
 */
export interface Principal {
  readonly userId: number;
  readonly role: UserRole;
  readonly apiKeyWorkspaceId: number | null;
}
