import type { Kysely, Selectable } from 'kysely';
import type { Link, NewLink } from '../core/link.js';
import type { InsertLinkResult, LinkStore } from '../core/ports.js';
import type { Database, LinkRow } from './schema.js';
import { guarded, uniqueConflictOf } from './store-errors.js';

const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function linkRowToLink(row: Selectable<LinkRow>): Link {
  return {
    id: Number(row.id),
    domain: row.domain,
    code: row.code,
    originalUrl: row.original_url,
    normalizedUrl: row.normalized_url,
    linkType: row.link_type,
    status: row.status,
    workspaceId: nullableNumber(row.workspace_id),
    ownerId: nullableNumber(row.owner_id),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: nullableNumber(row.expires_at),
    deletedAt: nullableNumber(row.deleted_at),
    redirectCount: Number(row.redirect_count),
    avgRedirectMs: Number(row.avg_redirect_ms),
    destinationStatus: nullableNumber(row.destination_status),
    lastCheckedAt: nullableNumber(row.last_checked_at),
  };
}

/** The link store for both SQLite and PostgreSQL: only portable Kysely queries live here. */
export class KyselyLinkStore implements LinkStore {
  constructor(private readonly db: Kysely<Database>) {}

  findLinkByCode(domain: string, code: string): Promise<Link | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('links').selectAll()
        .where('domain', '=', domain).where('code', '=', code)
        .executeTakeFirst();
      return row && linkRowToLink(row);
    });
  }

  findLinkById(id: number): Promise<Link | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirst();
      return row && linkRowToLink(row);
    });
  }

  insertLink(link: NewLink): Promise<InsertLinkResult> {
    return guarded(async () => {
      try {
        const row = await this.db.insertInto('links').values({
          domain: link.domain,
          code: link.code,
          original_url: link.originalUrl,
          normalized_url: link.normalizedUrl,
          link_type: link.linkType,
          status: 'ACTIVE',
          workspace_id: link.workspaceId,
          owner_id: link.ownerId,
          claim_token_hash: link.claimTokenHash,
          created_at: link.createdAt,
          updated_at: link.createdAt,
          expires_at: link.expiresAt,
          deleted_at: null,
          destination_status: null,
          last_checked_at: null,
        }).returningAll().executeTakeFirstOrThrow();
        return { ok: true, link: linkRowToLink(row) };
      } catch (error) {
        const conflict = uniqueConflictOf(error);
        if (conflict) return { ok: false, conflict };
        throw error;
      }
    });
  }

  ping(): Promise<void> {
    return guarded(async () => {
      await this.db.selectFrom('global_stats').select('id').limit(1).execute();
    });
  }
}
