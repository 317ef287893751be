import { LinkforgeError } from '../core/errors.js';
import type { Link } from '../core/link.js';
import type { Principal } from '../core/principal.js';
import { findAccessibleLink, type LinkSelector, type OwnedLinkDeps } from './link-access.js';

/** Brings back a soft-deleted link not yet purged; its expiry, if any, still applies. */
export async function restoreLink(deps: OwnedLinkDeps, principal: Principal, selector: LinkSelector): Promise<Link> {
  const link = await findAccessibleLink(deps, principal, selector, 'restore');
  const restored = await deps.store.restoreDeletedLink(link.id, deps.clock.now());
  if (restored === undefined) throw new LinkforgeError('link_not_deleted');
  await deps.cache.invalidate(link.domain, link.code);
  return restored;
}
