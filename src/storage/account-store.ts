import type { Kysely, Selectable } from 'kysely';
import type { WorkspaceRole } from '../core/principal.js';
import type {
  AccountStore, ApiKey, ApiKeyOwner, CreateUserResult, Member, Membership, NewUser, RemoveMemberResult, SessionUser, User,
  UserWithPasswordHash, WorkspaceSummary,
} from '../core/account-ports.js';
import type { ApiKeyRow, Database, UserRow } from './schema.js';
import { compiledOnce } from './compiled-once.js';
import { guarded } from './store-errors.js';
import { apiKeyRowToApiKey, membershipRowToMembership, optionalTime, userRowToUser, USER_COLUMNS, type MembershipRow } from './account-rows.js';
import { scopesFromText, scopesToText } from '../core/api-key-scopes.js';
import { holdsNul } from './unstorable-text.js';
import { summarizeWorkspaces } from './workspace-summaries.js';

/** Whether an insert broke the given unique index (SQLite names its columns, PostgreSQL the constraint). */
export function isUniqueViolation(error: unknown, sqliteColumns: string, pgConstraint: string): boolean {
  const err = error as { code?: string; message?: string; constraint?: string };
  if (err.code === '23505') return err.constraint === pgConstraint;
  return (err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
    && err.message?.endsWith(`constraint failed: ${sqliteColumns}`) === true;
}

const API_KEY_COLUMNS = ['id', 'workspace_id', 'name', 'prefix', 'scopes', 'expires_at', 'created_at', 'last_used_at'] as const;

/** Users, workspaces, members and API keys for both SQLite and PostgreSQL: portable Kysely only. */
export class KyselyAccountStore implements AccountStore {
  // The reads every authenticated request makes (its user, workspace and role), compiled once.
  private readonly userById;
  private readonly membership;
  private readonly personalWorkspace;

  constructor(private readonly db: Kysely<Database>) {
    this.userById = compiledOnce(1, (id: number) => db.selectFrom('users').select([...USER_COLUMNS, 'session_epoch']).where('id', '=', id));
    this.membership = compiledOnce(2, (workspaceId: number, userId: number) => this.memberships()
      .where('m.user_id', '=', userId).where('w.id', '=', workspaceId));
    this.personalWorkspace = compiledOnce(1, (userId: number) => db.selectFrom('workspaces').select('id')
      .where('created_by', '=', userId).where('is_personal', '=', 1)
      .orderBy('id').limit(1));
  }

  createUser(user: NewUser, personalWorkspaceName: string): Promise<CreateUserResult> {
    return guarded(async () => {
      try {
        return await this.db.transaction().execute(async (trx) => {
          const row = await trx.insertInto('users').values({
            email: user.email, password_hash: user.passwordHash, role: user.role, created_at: user.createdAt,
          }).returning(USER_COLUMNS).executeTakeFirstOrThrow();
          const workspace = await trx.insertInto('workspaces').values({
            name: personalWorkspaceName, is_personal: 1, created_by: row.id, created_at: user.createdAt,
          }).returning('id').executeTakeFirstOrThrow();
          await trx.insertInto('workspace_members').values({
            workspace_id: workspace.id, user_id: row.id, role: 'owner', created_at: user.createdAt,
          }).execute();
          return { ok: true as const, user: userRowToUser(row), personalWorkspaceId: Number(workspace.id) };
        });
      } catch (error) {
        if (isUniqueViolation(error, 'users.email', 'users_email_key')) return { ok: false, conflict: 'email' };
        throw error;
      }
    });
  }

  findUserById(id: number): Promise<SessionUser | undefined> {
    return guarded(async () => {
      const { rows: [row] } = await this.db.executeQuery<Pick<Selectable<UserRow>, typeof USER_COLUMNS[number] | 'session_epoch'>>(this.userById(id));
      return row && { ...userRowToUser(row), sessionEpoch: Number(row.session_epoch) };
    });
  }

  endSessions(userId: number): Promise<boolean> {
    return guarded(async () => {
      const result = await this.db.updateTable('users').set((eb) => ({ session_epoch: eb('session_epoch', '+', 1) }))
        .where('id', '=', userId).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
  }

  listUsers(): Promise<User[]> {
    return guarded(async () => (await this.db.selectFrom('users').select(USER_COLUMNS).orderBy('id').execute()).map(userRowToUser));
  }

  listWorkspaces(): Promise<WorkspaceSummary[]> {
    return guarded(async () => {
      const rows = await this.db.selectFrom('workspaces as w')
        .leftJoin('workspace_members as m', 'm.workspace_id', 'w.id').leftJoin('users as u', 'u.id', 'm.user_id')
        .select(['w.id', 'w.name', 'w.is_personal', 'w.created_at', 'm.role', 'u.email'])
        .orderBy('w.id').orderBy('u.id').execute();
      return summarizeWorkspaces(rows);
    });
  }

  findUserByEmail(email: string): Promise<UserWithPasswordHash | undefined> {
    if (holdsNul(email)) return Promise.resolve(undefined);
    return guarded(async () => {
      const row = await this.db.selectFrom('users').select([...USER_COLUMNS, 'session_epoch', 'password_hash'])
        .where('email', '=', email).executeTakeFirst();
      return row && { ...userRowToUser(row), sessionEpoch: Number(row.session_epoch), passwordHash: row.password_hash };
    });
  }

  createWorkspace(name: string, ownerId: number, createdAt: number): Promise<Membership> {
    return guarded(() => this.db.transaction().execute(async (trx) => {
      const row = await trx.insertInto('workspaces')
        .values({ name, is_personal: 0, created_by: ownerId, created_at: createdAt })
        .returning(['id', 'name', 'is_personal', 'created_at']).executeTakeFirstOrThrow();
      await trx.insertInto('workspace_members')
        .values({ workspace_id: row.id, user_id: ownerId, role: 'owner', created_at: createdAt }).execute();
      return membershipRowToMembership({ ...row, role: 'owner' });
    }));
  }

  private memberships() {
    return this.db.selectFrom('workspaces as w')
      .innerJoin('workspace_members as m', 'm.workspace_id', 'w.id')
      .select(['w.id', 'w.name', 'w.is_personal', 'w.created_at', 'm.role']);
  }

  listMemberships(userId: number): Promise<Membership[]> {
    return guarded(async () => {
      const rows = await this.memberships().where('m.user_id', '=', userId).orderBy('w.id').execute();
      return rows.map(membershipRowToMembership);
    });
  }

  findMembership(workspaceId: number, userId: number): Promise<Membership | undefined> {
    return guarded(async () => {
      const { rows: [row] } = await this.db.executeQuery<MembershipRow>(this.membership(workspaceId, userId));
      return row && membershipRowToMembership(row);
    });
  }

  findPersonalWorkspaceId(userId: number): Promise<number | undefined> {
    return guarded(async () => {
      const { rows: [row] } = await this.db.executeQuery<{ id: number }>(this.personalWorkspace(userId));
      return row && Number(row.id);
    });
  }

  listMembers(workspaceId: number): Promise<Member[]> {
    return guarded(async () => {
      const rows = await this.db.selectFrom('workspace_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.workspace_id', 'm.user_id', 'u.email', 'm.role', 'm.created_at'])
        .where('m.workspace_id', '=', workspaceId).orderBy('m.created_at').orderBy('m.user_id').execute();
      return rows.map((row) => ({
        workspaceId: Number(row.workspace_id), userId: Number(row.user_id), email: row.email,
        role: row.role, createdAt: Number(row.created_at),
      }));
    });
  }

  addMember(workspaceId: number, userId: number, role: WorkspaceRole, createdAt: number): Promise<boolean> {
    return guarded(async () => {
      try {
        await this.db.insertInto('workspace_members')
          .values({ workspace_id: workspaceId, user_id: userId, role, created_at: createdAt }).execute();
        return true;
      } catch (error) {
        const pk = 'workspace_members.workspace_id, workspace_members.user_id';
        if (isUniqueViolation(error, pk, 'workspace_members_pkey')) return false;
        throw error;
      }
    });
  }

  removeMember(workspaceId: number, userId: number): Promise<RemoveMemberResult> {
    return guarded(() => this.db.transaction().execute(async (trx) => {
      // A no-op update takes the workspace row's write lock (both databases), so two owners
      // removing each other at once cannot both see "another owner is left".
      await trx.updateTable('workspaces').set((eb) => ({ name: eb.ref('name') })).where('id', '=', workspaceId).execute();
      const target = await trx.selectFrom('workspace_members').select('role')
        .where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
      if (!target) return 'not_member';
      if (target.role === 'owner') {
        const owners = await trx.selectFrom('workspace_members').select((eb) => eb.fn.countAll<number>().as('n'))
          .where('workspace_id', '=', workspaceId).where('role', '=', 'owner').executeTakeFirstOrThrow();
        if (Number(owners.n) <= 1) return 'last_owner';
      }
      await trx.deleteFrom('workspace_members')
        .where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
      return 'removed';
    }));
  }

  insertApiKey(key: Omit<ApiKey, 'id' | 'lastUsedAt'> & { secretHash: string; createdBy: number }): Promise<ApiKey> {
    return guarded(async () => {
      const row = await this.db.insertInto('api_keys').values({
        workspace_id: key.workspaceId, name: key.name, prefix: key.prefix, secret_hash: key.secretHash,
        scopes: scopesToText(key.scopes), expires_at: key.expiresAt,
        created_by: key.createdBy, created_at: key.createdAt, last_used_at: null,
      }).returning(API_KEY_COLUMNS).executeTakeFirstOrThrow();
      return apiKeyRowToApiKey(row);
    });
  }

  listApiKeys(workspaceId: number): Promise<ApiKey[]> {
    return guarded(async () => {
      const rows = await this.db.selectFrom('api_keys').select(API_KEY_COLUMNS)
        .where('workspace_id', '=', workspaceId).orderBy('id').execute();
      return rows.map(apiKeyRowToApiKey);
    });
  }

  deleteApiKey(workspaceId: number, keyId: number): Promise<boolean> {
    return guarded(async () => {
      const result = await this.db.deleteFrom('api_keys')
        .where('workspace_id', '=', workspaceId).where('id', '=', keyId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  findApiKeyOwner(secretHash: string): Promise<ApiKeyOwner | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('api_keys as k')
        .innerJoin('workspace_members as m', (join) => join
          .onRef('m.workspace_id', '=', 'k.workspace_id').onRef('m.user_id', '=', 'k.created_by'))
        .innerJoin('users as u', 'u.id', 'm.user_id').where('u.disabled_at', 'is', null)
        .select(['k.id', 'k.workspace_id', 'm.user_id', 'k.scopes', 'k.expires_at', 'k.last_used_at'])
        .where('k.secret_hash', '=', secretHash).executeTakeFirst();
      return row && {
        keyId: Number(row.id), workspaceId: Number(row.workspace_id), userId: Number(row.user_id),
        scopes: scopesFromText(row.scopes), expiresAt: optionalTime(row.expires_at), lastUsedAt: optionalTime(row.last_used_at),
      };
    });
  }

  touchApiKey(keyId: number, usedAt: number): Promise<void> {
    return guarded(async () => {
      await this.db.updateTable('api_keys').set({ last_used_at: usedAt }).where('id', '=', keyId).execute();
    });
  }
}
