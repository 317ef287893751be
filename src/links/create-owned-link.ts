import { parseDestination, type Destination } from '../core/canonical-url.js';
import { CodeSpaceExhaustedError, CodeTakenError, UrlAlreadyShortenedError } from '../core/errors.js';
import type { Link, LinkRedirectStatus, NewLink } from '../core/link.js';
import { withOption } from '../core/link-options.js';
import { parseLinkPreview, type LinkPreviewInput } from '../core/link-preview.js';
import type { Principal } from '../core/principal.js';
import { deterministicCode, isReservedWord, MAX_DETERMINISTIC_ATTEMPTS, validateCustomCode } from '../core/short-code.js';
import { linkPasswordHashOf } from './link-password.js';
import { assertFutureExpiry } from './expiry.js';
import { requireMembership, reuseExistingLink, type OwnedLinkDeps } from './link-access.js';
import { requestedTagNames, setLinkTags } from './tags/link-tags.js';
import { newLinkLimits, type LimitFields } from './link-limits.js';
import { linkDomainKey } from './domains/link-domain.js';
import { optionsWithRouting, type RoutingInput } from './routing-options.js';

export interface CreateOwnedLinkRequest extends LimitFields, RoutingInput {
  readonly url: unknown;
  /** Defaults to the caller's personal workspace. */
  readonly workspaceId?: number;
  /** A verified custom domain of the workspace (its hostname); BASE_URL's when absent. */
  readonly domain?: string;
  readonly customCode?: string;
  readonly expiresAt?: number | null;
  /** Tag names; missing tags are made. Applied only when the link is created, like every other field. */
  readonly tags?: readonly string[];
  /** The link's own redirect status; absent or null: the instance's rule. */
  readonly redirectStatus?: LinkRedirectStatus | null;
  /** What link-preview agents are shown instead of the redirect (core/link-preview.ts); absent: none. */
  readonly preview?: LinkPreviewInput;
  /** A password visitors must give before the destination is revealed (stored as its bcrypt hash). */
  readonly password?: string;
  /** Visitors get a one-button page; only its submission counts and redirects. */
  readonly confirmBeforeRedirect?: boolean;
}

export interface CreateOwnedLinkResult {
  readonly link: Link;
  /** false: the workspace already held this URL, and that link is answered unchanged (or restored). */
  readonly created: boolean;
}

type LinkAt = (code: string) => NewLink;

/**
 * A PERMANENT link in one of the caller's workspaces (ADR 0007). Idempotency rests on the
 * unique indexes alone: the insert is tried first, and a conflict reads whoever holds the slot,
 * so concurrent identical creates all answer the one row that won.
 */
export async function createOwnedLink(deps: OwnedLinkDeps, principal: Principal, request: CreateOwnedLinkRequest): Promise<CreateOwnedLinkResult> {
  const workspaceId = request.workspaceId ?? await deps.workspaces.personalWorkspaceId(principal.userId);
  // A user owns their personal workspace; an API key acts only in its own, whichever that is.
  const ownPersonal = request.workspaceId === undefined && principal.apiKeyWorkspaceId === null;
  if (!ownPersonal) await requireMembership(deps, principal, workspaceId);
  const destination = parseDestination(request.url, deps.urlPolicy);
  const domain = await linkDomainKey(deps, workspaceId, request.domain);
  if (request.customCode !== undefined) validateCustomCode(request.customCode);
  const tagNames = requestedTagNames(request.tags, 'tags');
  const limits = newLinkLimits(request, deps.urlPolicy);
  const routing = optionsWithRouting(limits.options, request, deps.urlPolicy);
  const routed = routing === undefined ? limits.options : routing;
  const now = deps.clock.now();
  const expiresAt = request.expiresAt ?? null;
  assertFutureExpiry(expiresAt, now);
  const preview = request.preview === undefined ? undefined : parseLinkPreview(request.preview, deps.urlPolicy);
  const options = withOption(withOption(routed, 'preview', preview), 'confirmBeforeRedirect', request.confirmBeforeRedirect ? true : undefined);
  const passwordHash = await linkPasswordHashOf(deps.passwords, request.password, 'password');
  const linkAt: LinkAt = (code) => ({
    domain, code, ...destination, linkType: 'PERMANENT',
    workspaceId, ownerId: principal.userId, claimTokenHash: null, createdAt: now, expiresAt,
    redirectStatus: request.redirectStatus ?? null, maxClicks: limits.maxClicks, passwordHash, options,
  });
  const result = await (request.customCode === undefined
    ? insertWithDeterministicCode(deps, linkAt, workspaceId, destination)
    : insertWithCustomCode(deps, linkAt, workspaceId, destination, request.customCode));
  if (result.created && tagNames?.length) await setLinkTags(deps, result.link, tagNames);
  return result;
}

async function insertWithCustomCode(
  deps: OwnedLinkDeps, linkAt: LinkAt, workspaceId: number, destination: Destination, customCode: string,
): Promise<CreateOwnedLinkResult> {
  const result = await deps.store.insertLink(linkAt(customCode));
  if (result.ok) return created(deps, result.link);
  const existing = await deps.store.findLinkByWorkspaceUrl(workspaceId, destination.normalizedUrl);
  if (existing?.code === customCode) return { link: await reuseExistingLink(deps, existing), created: false };
  if (existing) throw new UrlAlreadyShortenedError(existing.code);
  throw new CodeTakenError(customCode);
}

async function insertWithDeterministicCode(
  deps: OwnedLinkDeps, linkAt: LinkAt, workspaceId: number, destination: Destination,
): Promise<CreateOwnedLinkResult> {
  for (let attempt = 0; attempt < MAX_DETERMINISTIC_ATTEMPTS; attempt++) {
    const code = deterministicCode(destination.normalizedUrl, workspaceId, attempt, deps.codeLength);
    if (isReservedWord(code)) continue;
    const result = await deps.store.insertLink(linkAt(code));
    if (result.ok) return created(deps, result.link);
    // Whichever index refused the row, the link this workspace holds for the URL is the answer;
    // when it holds none, another link has this code and the next attempt is tried.
    const existing = await deps.store.findLinkByWorkspaceUrl(workspaceId, destination.normalizedUrl);
    if (existing) return { link: await reuseExistingLink(deps, existing), created: false };
  }
  throw new CodeSpaceExhaustedError(MAX_DETERMINISTIC_ATTEMPTS);
}

async function created(deps: OwnedLinkDeps, link: Link): Promise<CreateOwnedLinkResult> {
  // A negative-cache entry for this code (someone probed it before) must not outlive the create.
  await deps.cache.invalidate(link.domain, link.code);
  return { link, created: true };
}
