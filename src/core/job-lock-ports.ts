/**
 * The port of the database lock that keeps a background job (the cleanup, the health check) to one
 * instance at a time. One Kysely implementation serves SQLite and PostgreSQL (src/storage).
 */

/** A row of the `shedlock` table, as ShedLock defines it. Times are epoch milliseconds. */
export interface LockState {
  readonly name: string;
  readonly lockUntil: number;
  readonly lockedAt: number;
  readonly lockedBy: string;
}

export interface JobLockStore {
  /**
   * Takes the lock in one atomic statement when it is free or expired (`lock_until <= now`):
   * sets `lock_until = lockUntil`, `locked_at = now`, `locked_by = owner`. True if taken.
   */
  tryAcquire(name: string, owner: string, now: number, lockUntil: number): Promise<boolean>;
  /**
   * Ends a hold: `lock_until = max(now, locked_at + atLeastMs)`, only while `owner` still holds
   * the lock it took at `lockedAt`. True if the row was ours.
   */
  release(name: string, owner: string, lockedAt: number, now: number, atLeastMs: number): Promise<boolean>;
  findLock(name: string): Promise<LockState | undefined>;
}
