import { effectiveStatus, type RedirectTarget } from './link.js';

export type GoneReason = 'expired' | 'deleted';

export type RedirectDecision =
  | { readonly kind: 'redirect'; readonly url: string; readonly expiring: boolean }
  | { readonly kind: 'gone'; readonly reason: GoneReason }
  | { readonly kind: 'disabled'; readonly reason: string }
  | { readonly kind: 'not_found' };

/**
 * Redirect, gone or not found (ADR 0006). Expiry is judged from `expiresAt` itself, whatever the
 * status column says: the reaper marks rows late, and a redirect must never outlive its expiry by
 * a second. A live link is decided by its first comparison: a disabled one costs it nothing more.
 */
export function decideRedirect(target: RedirectTarget | undefined, now: number): RedirectDecision {
  if (target === undefined) return NOT_FOUND;
  const status = effectiveStatus(target, now);
  if (status === 'ACTIVE') return { kind: 'redirect', url: target.url, expiring: target.expiresAt !== null };
  if (status === 'DISABLED') return { kind: 'disabled', reason: target.disabledReason ?? '' };
  return status === 'DELETED' ? GONE_DELETED : GONE_EXPIRED;
}

const NOT_FOUND: RedirectDecision = { kind: 'not_found' };
const GONE_DELETED: RedirectDecision = { kind: 'gone', reason: 'deleted' };
const GONE_EXPIRED: RedirectDecision = { kind: 'gone', reason: 'expired' };
