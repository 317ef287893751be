import type { ErrorCode } from '../core/error-codes.js';
import { LinkforgeError } from '../core/errors.js';
import type { Link } from '../core/link.js';
import type { Principal } from '../core/principal.js';
import { secretMatches } from '../core/secret-token.js';
import { createOwnedLink } from './create-owned-link.js';
import { reuseExistingLink, type OwnedLinkDeps } from './link-access.js';

export const MAX_CLAIM_ENTRIES = 100;

/** What the web UI kept in localStorage for one anonymous link. */
export interface ClaimEntry {
  readonly shortCode: string;
  readonly claimToken: string;
  readonly url: string;
}

export type ClaimOutcome = 'claimed' | 'created' | 'existing' | 'rejected';

export interface ClaimResult {
  readonly shortCode: string;
  readonly outcome: ClaimOutcome;
  /** For `rejected`: the stable code of the rule the URL broke. */
  readonly reason?: ErrorCode;
  readonly link?: Link;
}

/**
 * Claiming anonymous links (ADR 0007, "Claiming"). An entry whose code names a TEMPORARY link
 * (active, or expired and not yet purged) and whose token matches that link's stored hash takes
 * the link into the caller's personal workspace. Any other entry — wrong token, someone else's
 * link, no such code — is answered exactly like a fresh create of its URL, so the answer reveals
 * nothing about codes or tokens. Entries are handled one after another and answered in input
 * order; re-sending the same entries answers `existing`.
 */
export async function claimLinks(deps: OwnedLinkDeps, principal: Principal, entries: readonly ClaimEntry[]): Promise<ClaimResult[]> {
  const workspaceId = await deps.workspaces.personalWorkspaceId(principal.userId);
  const results: ClaimResult[] = [];
  for (const entry of entries) {
    const claimed = await tryClaim(deps, principal, workspaceId, entry);
    results.push(claimed ?? await createFromUrl(deps, principal, workspaceId, entry));
  }
  return results;
}

async function tryClaim(deps: OwnedLinkDeps, principal: Principal, workspaceId: number, entry: ClaimEntry): Promise<ClaimResult | undefined> {
  const claimable = await deps.store.findClaimableLink(deps.domain, entry.shortCode);
  if (claimable === undefined || !secretMatches(entry.claimToken, claimable.claimTokenHash)) return undefined;
  const { link, claimTokenHash } = claimable;
  const result = await deps.store.claimTemporaryLink(link.id, claimTokenHash, {
    ownerId: principal.userId, workspaceId, now: deps.clock.now(),
  });
  // Someone claimed it between the read and the update: the token is spent.
  if (result === undefined) return undefined;
  if (!result.ok) {
    // The caller already owns this URL; their link answers and the anonymous one stays as it is.
    const existing = await deps.store.findLinkByWorkspaceUrl(workspaceId, link.normalizedUrl);
    return existing && { shortCode: entry.shortCode, outcome: 'existing', link: await reuseExistingLink(deps, existing) };
  }
  await deps.cache.invalidate(link.domain, link.code);
  return { shortCode: entry.shortCode, outcome: 'claimed', link: result.link };
}

async function createFromUrl(deps: OwnedLinkDeps, principal: Principal, workspaceId: number, entry: ClaimEntry): Promise<ClaimResult> {
  try {
    const { link, created } = await createOwnedLink(deps, principal, { url: entry.url, workspaceId });
    return { shortCode: entry.shortCode, outcome: created ? 'created' : 'existing', link };
  } catch (error) {
    // One bad entry must not sink the others; outages and bugs still fail the request.
    if (error instanceof LinkforgeError && error.status < 500) {
      return { shortCode: entry.shortCode, outcome: 'rejected', reason: error.code };
    }
    throw error;
  }
}
