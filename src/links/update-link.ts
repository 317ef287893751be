import { parseDestination } from '../core/canonical-url.js';
import { LinkforgeError, UrlAlreadyShortenedError } from '../core/errors.js';
import type { Link, LinkRedirectStatus } from '../core/link.js';
import type { LinkChanges } from '../core/ports.js';
import { withOption } from '../core/link-options.js';
import { parseLinkPreview, type LinkPreviewInput } from '../core/link-preview.js';
import type { Principal } from '../core/principal.js';
import { linkPasswordHashOf } from './link-password.js';
import { assertFutureExpiry } from './expiry.js';
import { findAccessibleLink, type LinkSelector, type OwnedLinkDeps } from './link-access.js';
import { requestedTagNames, setLinkTags } from './tags/link-tags.js';
import { limitChanges, type LimitFields } from './link-limits.js';
import { optionsWithRouting, type RoutingInput } from './routing-options.js';

export interface LinkUpdate extends LimitFields, RoutingInput {
  readonly url?: unknown;
  /** `null` removes the expiry; absent leaves it as it is. */
  readonly expiresAt?: number | null;
  /** The link's whole set of tags by name (`[]` removes them all); absent leaves them. */
  readonly tags?: readonly string[];
  /** `null` goes back to the instance's rule; absent leaves it as it is. */
  readonly redirectStatus?: LinkRedirectStatus | null;
  /** `null` removes the preview; absent leaves it; the link's other options stay as they are. */
  readonly preview?: LinkPreviewInput | null;
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
  const limits = limitChanges(link, update, deps.urlPolicy);
  let options = limits.options ?? link.options;
  const routed = optionsWithRouting(options, update, deps.urlPolicy);
  if (routed !== undefined) options = routed;
  if (update.preview !== undefined) options = withOption(options, 'preview', update.preview === null ? null : parseLinkPreview(update.preview, deps.urlPolicy));
  if (update.confirmBeforeRedirect !== undefined) options = withOption(options, 'confirmBeforeRedirect', update.confirmBeforeRedirect ? true : undefined);
  const passwordHash = await linkPasswordHashOf(deps.passwords, update.password, 'password');
  const changes: LinkChanges = {
    ...destination, expiresAt: update.expiresAt, redirectStatus: update.redirectStatus, passwordHash, updatedAt: now,
    ...(limits.maxClicks === undefined ? {} : { maxClicks: limits.maxClicks }), ...(options === link.options ? {} : { options }),
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

