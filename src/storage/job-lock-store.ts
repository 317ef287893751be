import type { Kysely } from 'kysely';
import type { JobLockStore, LockState } from '../core/job-lock-ports.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';

/**
 * ShedLock's table in either database. Acquiring is one upsert whose update only applies to an
 * expired row (`ON CONFLICT … DO UPDATE … WHERE`, in SQLite since 3.24 and PostgreSQL since 9.5),
 * so two instances can never both see one affected row.
 */
export class KyselyJobLockStore implements JobLockStore {
  constructor(private readonly db: Kysely<Database>) {}

  tryAcquire(name: string, owner: string, now: number, lockUntil: number): Promise<boolean> {
    return guarded(async () => {
      // A held lock answers from a read: SQLite readers never wait, while the upsert would take
      // the write lock and, with better-sqlite3, wait synchronously for another writer to finish.
      const current = await this.findLock(name);
      if (current && current.lockUntil > now) return false;
      const result = await this.db.insertInto('shedlock')
        .values({ name, lock_until: lockUntil, locked_at: now, locked_by: owner })
        .onConflict((conflict) => conflict.column('name')
          .doUpdateSet((eb) => ({
            lock_until: eb.ref('excluded.lock_until'),
            locked_at: eb.ref('excluded.locked_at'),
            locked_by: eb.ref('excluded.locked_by'),
          }))
          .where('shedlock.lock_until', '<=', now))
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    });
  }

  release(name: string, owner: string, lockedAt: number, now: number, atLeastMs: number): Promise<boolean> {
    return guarded(async () => {
      // locked_at is pinned by the WHERE clause, so max(now, locked_at + atLeast) is known here.
      const atLeastUntil = lockedAt + atLeastMs;
      const result = await this.db.updateTable('shedlock')
        .set({ lock_until: atLeastUntil > now ? atLeastUntil : now })
        .where('name', '=', name)
        .where('locked_by', '=', owner)
        .where('locked_at', '=', lockedAt)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
  }

  findLock(name: string): Promise<LockState | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('shedlock').selectAll().where('name', '=', name).executeTakeFirst();
      return row && {
        name: row.name,
        lockUntil: Number(row.lock_until),
        lockedAt: Number(row.locked_at),
        lockedBy: row.locked_by,
      };
    });
  }
}
