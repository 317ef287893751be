import type { Kysely } from 'kysely';
import type { HealthCheckStore, LinkToCheck } from '../core/health-check-ports.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';

/** The health check's reads and writes of `links`, for SQLite and PostgreSQL alike. */
export class KyselyHealthCheckStore implements HealthCheckStore {
  constructor(private readonly db: Kysely<Database>) {}

  nextLinksToCheck(limit: number, now: number): Promise<LinkToCheck[]> {
    return guarded(async () => {
      const rows = await this.db.selectFrom('links')
        .select(['id', 'original_url', 'last_checked_at'])
        .where('status', '=', 'ACTIVE')
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        // Spelled out: PostgreSQL sorts NULLs last in ascending order, SQLite first.
        .orderBy('last_checked_at', (ob) => ob.asc().nullsFirst())
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: Number(row.id),
        originalUrl: row.original_url,
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
