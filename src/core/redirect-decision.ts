import { effectiveStatus, type LinkRedirectStatus, type RedirectTarget } from './link.js';

export type GoneReason = 'expired' | 'deleted';

export type RedirectDecision =
  | { readonly kind: 'redirect'; readonly url: string; readonly expiring: boolean; readonly status?: LinkRedirectStatus }
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
  if (status === 'ACTIVE') {
    const expiring = target.expiresAt !== null;
    if (target.redirectStatus === undefined) return { kind: 'redirect', url: target.url, expiring };
    return { kind: 'redirect', url: target.url, expiring, status: expiring ? temporaryOf(target.redirectStatus) : target.redirectStatus };
  }
  if (status === 'DISABLED') return { kind: 'disabled', reason: target.disabledReason ?? '' };
  return status === 'DELETED' ? GONE_DELETED : GONE_EXPIRED;
}

/**
 * The status a link that names its own answers while it expires: browsers keep following a
 * permanent redirect without asking, past the expiry, so 301 and 308 become their temporary
 * twins (302 keeps a POST's method as loosely as 301, 307 as strictly as 308).
 */
function temporaryOf(status: LinkRedirectStatus): LinkRedirectStatus {
  if (status === 301) return 302;
  return status === 308 ? 307 : status;
}

const NOT_FOUND: RedirectDecision = { kind: 'not_found' };
const GONE_DELETED: RedirectDecision = { kind: 'gone', reason: 'deleted' };
const GONE_EXPIRED: RedirectDecision = { kind: 'gone', reason: 'expired' };
