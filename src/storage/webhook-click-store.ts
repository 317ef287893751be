import { sql, type Kysely } from 'kysely';
import { WEBHOOK_EVENTS } from '../core/webhook-events.js';
import type { LinkClicks, WebhookClickOutbox } from '../core/webhook-ports.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';

const LINKS_PER_QUERY = 1_000;
/**
 * How long the answer to "does any enabled endpoint want link.clicked?" is kept: a flush a second
 * on an instance without such an endpoint (most) then costs one tiny read every few seconds, not
 * a join over the flush's links; a new endpoint hears of clicks at most this much later.
 */
const SUBSCRIBED_FOR_MS = 5_000;

/**
 * `link.clicked` (ADR 0035): after a flush, one outbox row per enabled endpoint that asked for it,
 * listing its workspace's links of the flush. Not in the flush's transaction: a click batch
 * reports counts already written, and a lost batch loses no link's state.
 */
export class KyselyWebhookClickStore implements WebhookClickOutbox {
  private subscribed: { readonly any: boolean; readonly until: number } | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  enqueueClicks(clicksOfFlush: () => readonly LinkClicks[], now: number): Promise<void> {
    return guarded(async () => {
      if (!await this.anySubscribed(now)) return;
      const clicks = clicksOfFlush();
      const countOf = new Map(clicks.map(({ linkId, count }) => [linkId, count]));
      const byEndpoint = new Map<number, Array<{ linkId: number; code: string; count: number }>>();
      for (let i = 0; i < clicks.length; i += LINKS_PER_QUERY) {
        const ids = clicks.slice(i, i + LINKS_PER_QUERY).map(({ linkId }) => linkId);
        const rows = await this.db.selectFrom('webhook_endpoints as e')
          .innerJoin('links as l', 'l.workspace_id', 'e.workspace_id')
          .select(['e.id as endpointId', 'l.id as linkId', 'l.code'])
          .where('e.enabled', '=', 1).where(sql<boolean>`(e.events & ${WEBHOOK_EVENTS['link.clicked']}) <> 0`)
          .where('l.id', 'in', ids).orderBy('l.id').execute();
        for (const row of rows) {
          const linkId = Number(row.linkId);
          const list = byEndpoint.get(Number(row.endpointId)) ?? [];
          list.push({ linkId, code: row.code, count: countOf.get(linkId) ?? 0 });
          byEndpoint.set(Number(row.endpointId), list);
        }
      }
      if (byEndpoint.size === 0) return;
      await this.db.insertInto('webhook_deliveries').values([...byEndpoint].map(([endpointId, list]) => ({
        endpoint_id: endpointId, event_type: 'link.clicked', link_id: null, payload: JSON.stringify({ clicks: list }),
        occurred_at: now, status: 'pending' as const, attempts: 0, next_attempt_at: 0,
      }))).execute();
    });
  }

  private async anySubscribed(now: number): Promise<boolean> {
    if (this.subscribed !== undefined && now < this.subscribed.until) return this.subscribed.any;
    const row = await this.db.selectFrom('webhook_endpoints').select('id').where('enabled', '=', 1)
      .where(sql<boolean>`(events & ${WEBHOOK_EVENTS['link.clicked']}) <> 0`).limit(1).executeTakeFirst();
    this.subscribed = { any: row !== undefined, until: now + SUBSCRIBED_FOR_MS };
    return this.subscribed.any;
  }
}
