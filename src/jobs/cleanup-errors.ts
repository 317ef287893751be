import { LinkforgeError } from '../core/errors.js';
import type { LockState } from '../core/job-lock-ports.js';

/** Another run holds the cleanup job's lock (or its `CLEANUP_LOCK_AT_LEAST` window is not over). */
export class CleanupLockedError extends LinkforgeError {
  constructor(holder: LockState | undefined) {
    super('cleanup_locked', 'Another cleanup run holds the lock; try again after it is released.',
      holder ? { lockedBy: holder.lockedBy, lockedUntil: new Date(holder.lockUntil).toISOString() } : {});
  }
}

/** The instance is shutting down and starts no new run. */
export class CleanupStoppingError extends LinkforgeError {
  constructor() {
    super('server_shutting_down', 'This instance is shutting down and starts no new cleanup run.');
  }
}
