import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { JobLockStore, LockState } from '../core/job-lock-ports.js';
import type { Clock } from '../core/ports.js';

/** `hostname:pid:random`, so that two instances in one process (tests) are still told apart. */
export function newInstanceId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export interface DatabaseLockOptions {
  readonly store: JobLockStore;
  readonly clock: Clock;
  readonly name: string;
  readonly instance: string;
  /** Longest hold: if the holder dies, others may take the lock this long after it was taken. */
  readonly lockAtMostMs: number;
  /** Shortest hold: a release never frees the lock earlier than this after it was taken. */
  readonly lockAtLeastMs: number;
}

export interface HeldLock {
  readonly lockedAt: number;
  readonly lockUntil: number;
  /** Ends the hold (ShedLock's release: `lock_until = max(now, locked_at + lockAtLeast)`). */
  release(): Promise<boolean>;
}

/**
 * ShedLock's semantics on the `shedlock` table: a named lock held by one instance at a time,
 * across any number of processes sharing the database. Times come from the app clock, so
 * instances must keep their clocks roughly in sync (NTP); the lock only prevents duplicate work,
 * the cleanup's predicates keep data safe without it.
 */
export class DatabaseLock {
  constructor(private readonly options: DatabaseLockOptions) {}

  get instance(): string {
    return this.options.instance;
  }

  async tryAcquire(): Promise<HeldLock | undefined> {
    const { store, clock, name, instance, lockAtMostMs, lockAtLeastMs } = this.options;
    const lockedAt = clock.now();
    const lockUntil = lockedAt + lockAtMostMs;
    if (!(await store.tryAcquire(name, instance, lockedAt, lockUntil))) return undefined;
    let released = false;
    return {
      lockedAt,
      lockUntil,
      release: async () => {
        if (released) return false;
        released = true;
        return store.release(name, instance, lockedAt, clock.now(), lockAtLeastMs);
      },
    };
  }

  /** The current holder, or undefined when the lock is free or expired. */
  async findHolder(): Promise<LockState | undefined> {
    const state = await this.options.store.findLock(this.options.name);
    return state && state.lockUntil > this.options.clock.now() ? state : undefined;
  }
}
