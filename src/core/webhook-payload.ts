import type { ShortUrls } from './short-urls.js';

/** A link's row as the outbox's trigger wrote it (migration 025): snake_case, times in epoch milliseconds. */
interface LinkSnapshot {
  id: number; domain: string; code: string; original_url: string; normalized_url: string; link_type: string; status: string;
  workspace_id: number | null; created_at: number; updated_at: number; expires_at: number | null; deleted_at: number | null;
  redirect_status: number | null; max_clicks: number | null; clicks_left: number | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** The link's fields, named as the API's link JSON names them (http/link-json.ts). */
function linkData(row: LinkSnapshot, urls: ShortUrls) {
  return {
    id: row.id, shortCode: row.code, shortUrl: urls.shortUrlOf(row.domain, row.code), domain: urls.hostnameOf(row.domain), originalUrl: row.original_url, normalizedUrl: row.normalized_url,
    linkType: row.link_type, status: row.status, workspaceId: row.workspace_id,
    createdAt: iso(row.created_at), updatedAt: iso(row.updated_at), expiresAt: iso(row.expires_at), deletedAt: iso(row.deleted_at),
    redirectStatus: row.redirect_status, maxClicks: row.max_clicks, clicksLeft: row.clicks_left,
  };
}

/**
 * The body a receiver gets, as Standard Webhooks shapes it: `{ type, timestamp, data }`. It is
 * made from the stored row each time, the same bytes on every retry.
 */
export function webhookBody(eventType: string, occurredAt: number, payload: string, urls: ShortUrls): string {
  const stored = JSON.parse(payload) as LinkSnapshot | { clicks: unknown };
  const data = 'clicks' in stored ? stored : linkData(stored, urls);
  return JSON.stringify({ type: eventType, timestamp: iso(occurredAt), data });
}
