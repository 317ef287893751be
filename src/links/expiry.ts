import { ValidationError } from '../core/errors.js';

/** An expiry the owner sets must lie ahead: a link created or edited already expired is a mistake. */
export function assertFutureExpiry(expiresAt: number | null, now: number): void {
  if (expiresAt === null) return;
  if (!Number.isFinite(expiresAt) || expiresAt <= now) {
    throw new ValidationError('expires_at_not_future');
  }
}
