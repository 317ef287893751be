import { api, type ResponseOf, type SyncOutcome } from './api.js';
import { API_LIMITS } from './api-limits.js';
import { forgetAnonLinks, liveAnonLinks } from './anon-links.js';

const BATCH = API_LIMITS.syncLinksPerRequest;

/**
 * Posts the anonymous links kept in localStorage to /api/urls/sync, exactly as stored, in batches;
 * each batch the server answered is forgotten (every entry got an outcome, rejected ones included:
 * retrying them cannot succeed). A batch that failed stays for the next sign-in.
 */
export async function syncAnonLinks(): Promise<{ outcomes: SyncOutcome[]; failed?: string }> {
  const links = liveAnonLinks();
  const outcomes: SyncOutcome[] = [];
  for (let start = 0; start < links.length; start += BATCH) {
    const batch = links.slice(start, start + BATCH);
    try {
      const { results } = await api<ResponseOf<'syncLinks'>>('POST', '/api/urls/sync', { links: batch });
      outcomes.push(...results);
      forgetAnonLinks(batch.map((link) => link.shortCode));
    } catch (error) {
      return { outcomes, failed: error instanceof Error ? error.message : 'The links could not be moved to your account.' };
    }
  }
  return { outcomes };
}
