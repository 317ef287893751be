import type { Principal } from '../core/principal.js';
import { findAccessibleLink, type LinkSelector, type OwnedLinkDeps } from './link-access.js';

/**
 * Soft delete: the link answers 410 until the reaper purges it, and can be restored until then.
 * Deleting a deleted link changes nothing and succeeds, so a retried DELETE is harmless.
 */
export async function deleteLink(deps: OwnedLinkDeps, principal: Principal, selector: LinkSelector): Promise<void> {
  const link = await findAccessibleLink(deps, principal, selector, 'delete');
  await deps.store.markLinkDeleted(link.id, deps.clock.now());
  await deps.cache.invalidate(link.domain, link.code);
}
