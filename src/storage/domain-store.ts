import type { Kysely, Selectable } from 'kysely';
import type { CustomDomain, DomainRedirects, DomainStore, NewDomain } from '../core/domain-ports.js';
import type { Database } from './schema.js';
import type { DomainRow } from './domain-row.js';
import { guarded } from './store-errors.js';

function domainRowToDomain(row: Selectable<DomainRow>): CustomDomain {
  return {
    id: Number(row.id), workspaceId: Number(row.workspace_id), hostname: row.hostname, status: row.status,
    verificationToken: row.verification_token, verifiedAt: row.verified_at === null ? null : Number(row.verified_at),
    rootRedirectUrl: row.root_redirect_url, notFoundRedirectUrl: row.not_found_redirect_url, createdAt: Number(row.created_at),
  };
}

/** A write refused by the one-hostname-per-instance index (migration 026). */
function isHostnameConflict(error: unknown): boolean {
  const err = error as { code?: string; message?: string; constraint?: string };
  if (err.code === '23505') return err.constraint === 'domains_hostname_key';
  return err.code === 'SQLITE_CONSTRAINT_UNIQUE' && (err.message ?? '').includes('domains.hostname');
}

/** Custom domains for both SQLite and PostgreSQL (ADR 0036). */
export class KyselyDomainStore implements DomainStore {
  constructor(private readonly db: Kysely<Database>) {}

  insertDomain(domain: NewDomain): Promise<CustomDomain | undefined> {
    return guarded(async () => {
      try {
        const row = await this.db.insertInto('domains').values({
          workspace_id: domain.workspaceId, hostname: domain.hostname, status: 'pending',
          verification_token: domain.verificationToken, created_at: domain.createdAt,
        }).returningAll().executeTakeFirstOrThrow();
        return domainRowToDomain(row);
      } catch (error) {
        if (isHostnameConflict(error)) return undefined;
        throw error;
      }
    });
  }

  listDomains(workspaceId: number): Promise<CustomDomain[]> {
    return guarded(async () => (await this.db.selectFrom('domains').selectAll().where('workspace_id', '=', workspaceId).orderBy('hostname').execute()).map(domainRowToDomain));
  }

  findDomain(workspaceId: number, domainId: number): Promise<CustomDomain | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('domains').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', domainId).executeTakeFirst();
      return row && domainRowToDomain(row);
    });
  }

  findDomainByHostname(hostname: string): Promise<CustomDomain | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('domains').selectAll().where('hostname', '=', hostname).executeTakeFirst();
      return row && domainRowToDomain(row);
    });
  }

  updateRedirects(workspaceId: number, domainId: number, changes: DomainRedirects): Promise<CustomDomain | undefined> {
    return guarded(async () => {
      const row = await this.db.updateTable('domains')
        .set({ root_redirect_url: changes.rootRedirectUrl, not_found_redirect_url: changes.notFoundRedirectUrl })
        .where('workspace_id', '=', workspaceId).where('id', '=', domainId).returningAll().executeTakeFirst();
      return row && domainRowToDomain(row);
    });
  }

  markVerified(workspaceId: number, domainId: number, at: number): Promise<CustomDomain | undefined> {
    return guarded(async () => {
      const row = await this.db.updateTable('domains')
        .set((eb) => ({ status: 'verified', verified_at: eb.fn.coalesce('verified_at', eb.val(at)) }))
        .where('workspace_id', '=', workspaceId).where('id', '=', domainId).returningAll().executeTakeFirst();
      return row && domainRowToDomain(row);
    });
  }

  deleteDomain(workspaceId: number, domainId: number): Promise<boolean> {
    return guarded(async () => {
      const result = await this.db.deleteFrom('domains').where('workspace_id', '=', workspaceId).where('id', '=', domainId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  listVerifiedDomains(): Promise<CustomDomain[]> {
    return guarded(async () => (await this.db.selectFrom('domains').selectAll().where('status', '=', 'verified').execute()).map(domainRowToDomain));
  }
}
