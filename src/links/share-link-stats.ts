import { LinkforgeError } from '../core/errors.js';
import type { Link } from '../core/link.js';
import type { LinkShare } from '../core/link-share-ports.js';
import type { Principal } from '../core/principal.js';
import { hashSecret, newSecret } from '../core/secret-token.js';
import type { StatsDeps } from './get-global-stats.js';
import { findAccessibleLink, type LinkSelector } from './link-access.js';

/** Share tokens say what they are, as API keys do (`lfk_`): a secret scanner can tell them apart. */
export const SHARE_TOKEN_PREFIX = 'lfs_';

/**
 * Sharing a link's stats and revoking the share take the workspace's owner or admin role (an API
 * key acts as admin): a share opens the stats to anyone, which is a workspace's decision, not a
 * member's. A plain member is told why; everyone else gets link_not_found.
 */
async function findShareableLink(deps: StatsDeps, principal: Principal, selector: LinkSelector): Promise<Link> {
  const { link, mayShare } = await readableLink(deps, principal, selector);
  if (!mayShare) throw new LinkforgeError('link_share_not_allowed');
  return link;
}

async function readableLink(deps: StatsDeps, principal: Principal, selector: LinkSelector): Promise<{ link: Link; mayShare: boolean }> {
  const link = await findAccessibleLink(deps.links, principal, selector, 'read');
  const role = await deps.links.workspaces.roleIn(principal, link.workspaceId!);
  return { link, mayShare: role === 'owner' || role === 'admin' };
}

/** A new share address; the link's earlier one, if any, stops working. The token is shown once and stored hashed. */
export async function shareLinkStats(deps: StatsDeps, principal: Principal, selector: LinkSelector): Promise<{ share: LinkShare; token: string }> {
  const link = await findShareableLink(deps, principal, selector);
  const token = newSecret(SHARE_TOKEN_PREFIX);
  const share = await deps.shares.replaceShare({ linkId: link.id, tokenHash: hashSecret(token), createdBy: principal.userId, now: deps.clock.now() });
  return { share, token };
}

/** Whether the link's stats are shared, and whether the caller may change that: whoever may read the link may know. */
export async function findLinkShare(deps: StatsDeps, principal: Principal, selector: LinkSelector): Promise<{ share?: LinkShare; mayShare: boolean }> {
  const { link, mayShare } = await readableLink(deps, principal, selector);
  return { share: await deps.shares.findActiveShare(link.id), mayShare };
}

/** Revoking a link with no active share changes nothing and succeeds, like deleting a deleted link. */
export async function revokeLinkShare(deps: StatsDeps, principal: Principal, selector: LinkSelector): Promise<void> {
  const link = await findShareableLink(deps, principal, selector);
  await deps.shares.revokeShare(link.id, deps.clock.now());
}
