import type { Kysely } from 'kysely';
import type { CheckOrderPosition, HealthCheckStore, LinkToCheck } from '../core/health-check-ports.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';

/** The health check's reads and writes of `links`, for SQLite and PostgreSQL alike. */
export class KyselyHealthCheckStore implements HealthCheckStore {
  constructor(private readonly db: Kysely<Database>) {}

  nextLinksToCheck(limit: number, now: number, after?: CheckOrderPosition): Promise<LinkToCheck[]> {
    return guarded(async () => {
      let query = this.db.selectFrom('links')
        .select(['id', 'original_url', 'workspace_id', 'last_checked_at'])
        .where('status', '=', 'ACTIVE')
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
      if (after) {
        const checkedAt = after.lastCheckedAt;
        query = query.where((eb) => checkedAt === null
          ? eb.or([eb.and([eb('last_checked_at', 'is', null), eb('id', '>', after.id)]), eb('last_checked_at', 'is not', null)])
          : eb.or([eb('last_checked_at', '>', checkedAt), eb.and([eb('last_checked_at', '=', checkedAt), eb('id', '>', after.id)])]));
      }
      const rows = await query
        // Spelled out: PostgreSQL sorts NULLs last in ascending order, SQLite first.
        .orderBy('last_checked_at', (ob) => ob.asc().nullsFirst())
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: Number(row.id),
        originalUrl: row.original_url,
        workspaceId: row.workspace_id === null ? null : Number(row.workspace_id),
        lastCheckedAt: row.last_checked_at === null ? null : Number(row.last_checked_at),
      }));
    });
  }

  recordCheck(id: number, status: number, checkedAt: number): Promise<void> {
    return guarded(async () => {
      await this.db.updateTable('links')
        .set({ destination_status: status, last_checked_at: checkedAt })
        .where('id', '=', id)
        .execute();
    });
  }
}
