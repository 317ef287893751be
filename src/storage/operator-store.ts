import { sql, type Kysely, type SqlBool } from 'kysely';
import type { User } from '../core/account-ports.js';
import type { InstanceCounts, LinkDisabling, LinkForOperator, OperatorStore, UserSearch } from '../core/admin-ports.js';
import type { Database } from './schema.js';
import { userRowToUser, USER_COLUMNS } from './account-rows.js';
import { linkRowToLink } from './link-rows.js';
import { guarded } from './store-errors.js';
import { holdsNul } from './unstorable-text.js';

const count = (value: unknown) => Number(value ?? 0);

// lower() because LIKE is case-insensitive in SQLite but not in PostgreSQL; '!' escapes the
// operator's own % and _ so they match literally.
const containsPattern = (search: string) => `%${search.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;

/** The operator's reads and changes across every workspace, for both SQLite and PostgreSQL. */
export class KyselyOperatorStore implements OperatorStore {
  constructor(private readonly db: Kysely<Database>) {}

  searchUsers({ search, beforeId, limit }: UserSearch): Promise<User[]> {
    if (holdsNul(search)) return Promise.resolve([]);
    return guarded(async () => {
      let query = this.db.selectFrom('users').select(USER_COLUMNS);
      if (search) query = query.where(sql<SqlBool>`lower(email) like ${containsPattern(search)} escape '!'`);
      if (beforeId !== undefined) query = query.where('id', '<', beforeId);
      return (await query.orderBy('id', 'desc').limit(limit).execute()).map(userRowToUser);
    });
  }

  setUserDisabled(userId: number, disabledAt: number | null): Promise<User | undefined> {
    return guarded(async () => {
      const row = await this.db.updateTable('users')
        .set({ disabled_at: disabledAt === null ? null : sql<number>`coalesce(disabled_at, ${disabledAt})` })
        .where('id', '=', userId).returning(USER_COLUMNS).executeTakeFirst();
      return row && userRowToUser(row);
    });
  }

  findLinkForOperator(domain: string, code: string): Promise<LinkForOperator | undefined> {
    if (holdsNul(domain, code)) return Promise.resolve(undefined);
    return guarded(async () => {
      const row = await this.db.selectFrom('links as l')
        .leftJoin('users as u', 'u.id', 'l.owner_id').leftJoin('workspaces as w', 'w.id', 'l.workspace_id')
        .selectAll('l').select(['u.email as owner_email', 'w.name as workspace_name'])
        .where('l.domain', '=', domain).where('l.code', '=', code).executeTakeFirst();
      return row && { link: linkRowToLink(row), ownerEmail: row.owner_email, workspaceName: row.workspace_name };
    });
  }

  async setLinkDisabled(domain: string, code: string, disabling: LinkDisabling | null): Promise<LinkForOperator | undefined> {
    if (holdsNul(domain, code)) return undefined;
    const changed = await guarded(() => this.db.updateTable('links').set({
      disabled_reason: disabling?.reason ?? null, disabled_at: disabling?.at ?? null, disabled_by: disabling?.by ?? null,
    }).where('domain', '=', domain).where('code', '=', code).executeTakeFirst());
    return Number(changed.numUpdatedRows) > 0 ? this.findLinkForOperator(domain, code) : undefined;
  }

  countInstance(now: number): Promise<InstanceCounts> {
    return guarded(async () => {
      const users = await this.db.selectFrom('users').select((eb) => [
        eb.fn.countAll().as('users'),
        eb.fn.count(eb.case().when('role', '=', 'admin').then(1).end()).as('admins'),
        eb.fn.count('disabled_at').as('disabled'),
      ]).executeTakeFirstOrThrow();
      const workspaces = await this.db.selectFrom('workspaces').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const apiKeys = await this.db.selectFrom('api_keys').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const links = await this.db.selectFrom('links').select((eb) => {
        const live = eb.and([eb('disabled_reason', 'is', null), eb('status', '=', 'ACTIVE')]);
        const pastExpiry = eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', now)]);
        return [
          eb.fn.count(eb.case().when(eb.and([live, eb.not(pastExpiry)])).then(1).end()).as('active'),
          eb.fn.count(eb.case().when(eb.and([eb('disabled_reason', 'is', null), eb.or([
            eb('status', '=', 'EXPIRED'), eb.and([eb('status', '=', 'ACTIVE'), pastExpiry]),
          ])])).then(1).end()).as('expired'),
          eb.fn.count(eb.case().when(eb.and([eb('disabled_reason', 'is', null), eb('status', '=', 'DELETED')])).then(1).end()).as('deleted'),
          eb.fn.count('disabled_reason').as('disabled'),
          eb.fn.count(eb.case().when('link_type', '=', 'TEMPORARY').then(1).end()).as('temporary'),
          eb.fn.count(eb.case().when('link_type', '=', 'PERMANENT').then(1).end()).as('permanent'),
        ];
      }).executeTakeFirstOrThrow();
      return {
        users: count(users.users), admins: count(users.admins), disabledUsers: count(users.disabled),
        workspaces: count(workspaces.n), apiKeys: count(apiKeys.n),
        links: {
          active: count(links.active), expired: count(links.expired), deleted: count(links.deleted),
          disabled: count(links.disabled), temporary: count(links.temporary), permanent: count(links.permanent),
        },
      };
    });
  }
}
