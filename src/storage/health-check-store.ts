import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { CheckOrderPosition, HealthCheckStore, LinkToCheck } from '../core/health-check-ports.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';

type ActiveLinks = SelectQueryBuilder<Database, 'links', { id: number; original_url: string; workspace_id: number | null; last_checked_at: number | null }>;

/** The health check's reads and writes of `links`, for SQLite and PostgreSQL alike. */
export class KyselyHealthCheckStore implements HealthCheckStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Each page is one range of the check-order index (migration 007), never a scan from its start:
   * after a checked link, a row-value comparison; after a never-checked one, the rest of the
   * never-checked, then the checked from the oldest.
   */
  nextLinksToCheck(limit: number, now: number, after?: CheckOrderPosition): Promise<LinkToCheck[]> {
    return guarded(async () => {
      if (after === undefined) return this.page(limit, now, (query) => query);
      const checkedAt = after.lastCheckedAt;
      if (checkedAt !== null) {
        return this.page(limit, now, (query) => query.where((eb) => eb(eb.refTuple('last_checked_at', 'id'), '>', eb.tuple(checkedAt, after.id))));
      }
      const neverChecked = await this.page(limit, now, (query) => query.where('last_checked_at', 'is', null).where('id', '>', after.id));
      if (neverChecked.length === limit) return neverChecked;
      const checked = await this.page(limit - neverChecked.length, now, (query) => query.where('last_checked_at', 'is not', null));
      return [...neverChecked, ...checked];
    });
  }

  private async page(limit: number, now: number, narrow: (query: ActiveLinks) => ActiveLinks): Promise<LinkToCheck[]> {
    const active = this.db.selectFrom('links')
      .select(['id', 'original_url', 'workspace_id', 'last_checked_at'])
      .where('status', '=', 'ACTIVE')
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
    const rows = await narrow(active)
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
