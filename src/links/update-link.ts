import { parseDestination } from '../core/canonical-url.js';
import { LinkforgeError, UrlAlreadyShortenedError } from '../core/errors.js';
import type { Link, LinkRedirectStatus } from '../core/link.js';
import type { LinkChanges } from '../core/ports.js';
import type { Principal } from '../core/principal.js';
import { withOption } from '../core/link-options.js';
import { linkPasswordHashOf } from './link-password.js';
import { assertFutureExpiry } from './expiry.js';
import { findAccessibleLink, type LinkSelector, type OwnedLinkDeps } from './link-access.js';
import { requestedTagNames, setLinkTags } from './tags/link-tags.js';

export interface LinkUpdate {
  readonly url?: unknown;
  /** `null` removes the expiry; absent leaves it as it is. */
  readonly expiresAt?: number | null;
  /** The link's whole set of tags by name (`[]` removes them all); absent leaves them. */
  readonly tags?: readonly string[];
  /** `null` goes back to the instance's rule; absent leaves it as it is. */
  readonly redirectStatus?: LinkRedirectStatus | null;
  /** A new password; `null` removes it; absent leaves it as it is. */
  readonly password?: string | null;
  /** Turns the confirmation page on or off; absent leaves it as it is. */
  readonly confirmBeforeRedirect?: boolean;
}

/**
 * Edits a link's destination, expiry or redirect status. The code stays: people already hold it, even though
 * after a URL change it no longer matches the one core/short-code.ts would compute.
 */
export async function updateLink(deps: OwnedLinkDeps, principal: Principal, selector: LinkSelector, update: LinkUpdate): Promise<Link> {
  const link = await findAccessibleLink(deps, principal, selector, 'edit');
  const now = deps.clock.now();
  const destination = update.url === undefined ? undefined : parseDestination(update.url, deps.urlPolicy);
  if (update.expiresAt !== undefined) assertFutureExpiry(update.expiresAt, now);
  const tagNames = requestedTagNames(update.tags, 'tags');
  const passwordHash = await linkPasswordHashOf(deps.passwords, update.password, 'password');
  const changes: LinkChanges = {
    ...destination, expiresAt: update.expiresAt, redirectStatus: update.redirectStatus, passwordHash, ...optionChanges(link, update), updatedAt: now,
  };
  const result = await deps.store.updateLink(link.id, changes);
  if (result === undefined) throw new LinkforgeError('link_not_found');
  if (!result.ok) {
    const holder = destination && await deps.store.findLinkByWorkspaceUrl(link.workspaceId!, destination.normalizedUrl);
    throw new UrlAlreadyShortenedError(holder?.code ?? '?');
  }
  if (tagNames !== undefined) await setLinkTags(deps, result.link, tagNames);
  await deps.cache.invalidate(link.domain, link.code);
  return result.link;
}

/** Only the option this update names changes: the others (set by other fields) are kept. */
function optionChanges(link: Link, update: LinkUpdate): Pick<LinkChanges, 'options'> {
  if (update.confirmBeforeRedirect === undefined) return {};
  return { options: withOption(link.options, 'confirmBeforeRedirect', update.confirmBeforeRedirect ? true : undefined) };
}
