import { LinkforgeError } from '../core/errors.js';
import { hashSecret } from '../core/secret-token.js';
import type { StatsDeps } from './get-global-stats.js';
import { statsOfLink, statsRange, type LinkStats, type LinkStatsQuery } from './get-link-stats.js';

/** What a shared stats page shows of its link: nothing its owner keeps private. */
export interface SharedLink {
  readonly code: string;
  /** The destination without credentials, query string or fragment, where secrets of a destination live. */
  readonly destination: string;
}

export function publicDestination(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin === 'null' ? `${parsed.protocol}//${parsed.host}` : parsed.origin}${parsed.pathname}`;
  } catch {
    return '';
  }
}

/**
 * `GET /api/shared/{token}/stats`: anyone holding the token sees the link's stats, read from the
 * roll-ups like the owner's (no visit is recorded, no counter moves). A wrong or revoked token, and a
 * deleted or purged link, answer the same 404. The token is looked up by its SHA-256 only.
 */
export async function getSharedStats(deps: StatsDeps, token: string, query: LinkStatsQuery): Promise<{ link: SharedLink; stats: LinkStats }> {
  statsRange(query, deps.clock.now());
  const linkId = await deps.shares.findSharedLinkId(hashSecret(token));
  const link = linkId === undefined ? undefined : await deps.links.store.findLinkById(linkId);
  if (link === undefined || link.status === 'DELETED') throw new LinkforgeError('shared_stats_not_found');
  const stats = await statsOfLink(deps, link.id, query, link.options, publicDestination);
  return { link: { code: link.code, destination: publicDestination(link.originalUrl) }, stats };
}
