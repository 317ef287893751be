import type { Kysely, Selectable, Updateable } from 'kysely';
import { eventBits, eventsOfBits } from '../core/webhook-events.js';
import type { NewWebhookEndpoint, WebhookDelivery, WebhookEndpoint, WebhookEndpointChanges, WebhookStore } from '../core/webhook-ports.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './webhook-rows.js';

const ENDPOINT_COLUMNS = ['id', 'workspace_id', 'url', 'events', 'enabled', 'disabled_reason', 'created_at', 'updated_at'] as const;
type EndpointRow = Pick<Selectable<WebhookEndpointRow>, (typeof ENDPOINT_COLUMNS)[number]>;

const endpointRowToEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: Number(row.id), workspaceId: Number(row.workspace_id), url: row.url, events: eventsOfBits(Number(row.events)),
  enabled: Number(row.enabled) === 1, disabledReason: row.disabled_reason, createdAt: Number(row.created_at), updatedAt: Number(row.updated_at),
});

const nullableNumber = (value: number | null) => (value === null ? null : Number(value));

export const deliveryRowToDelivery = (row: Selectable<WebhookDeliveryRow>): WebhookDelivery => ({
  id: Number(row.id), eventType: row.event_type, linkId: nullableNumber(row.link_id), status: row.status, attempts: Number(row.attempts),
  lastStatus: nullableNumber(row.last_status), lastError: row.last_error,
  nextAttemptAt: row.status === 'pending' ? Number(row.next_attempt_at) : null,
  occurredAt: Number(row.occurred_at), deliveredAt: nullableNumber(row.delivered_at),
});

/** Endpoints and the listing of their deliveries, on both databases; every endpoint query names its workspace. */
export class KyselyWebhookStore implements WebhookStore {
  constructor(private readonly db: Kysely<Database>) {}

  insertEndpoint(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    return guarded(async () => endpointRowToEndpoint(await this.db.insertInto('webhook_endpoints').values({
      workspace_id: endpoint.workspaceId, url: endpoint.url, events: eventBits(endpoint.events), secret: endpoint.secret,
      enabled: 1, disabled_reason: null, failing_since: null, created_at: endpoint.createdAt, updated_at: endpoint.createdAt,
    }).returning(ENDPOINT_COLUMNS).executeTakeFirstOrThrow()));
  }

  listEndpoints(workspaceId: number): Promise<WebhookEndpoint[]> {
    return guarded(async () => (await this.db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS)
      .where('workspace_id', '=', workspaceId).orderBy('id').execute()).map(endpointRowToEndpoint));
  }

  findEndpoint(workspaceId: number, id: number): Promise<WebhookEndpoint | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS)
        .where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      return row && endpointRowToEndpoint(row);
    });
  }

  updateEndpoint(workspaceId: number, id: number, changes: WebhookEndpointChanges): Promise<WebhookEndpoint | undefined> {
    const values: Updateable<WebhookEndpointRow> = { updated_at: changes.updatedAt };
    if (changes.url !== undefined) values.url = changes.url;
    if (changes.events !== undefined) values.events = eventBits(changes.events);
    if (changes.enabled !== undefined) Object.assign(values, { enabled: changes.enabled ? 1 : 0, disabled_reason: null, failing_since: null });
    return guarded(async () => {
      const row = await this.db.updateTable('webhook_endpoints').set(values)
        .where('workspace_id', '=', workspaceId).where('id', '=', id)
        .returning(ENDPOINT_COLUMNS).executeTakeFirst();
      return row && endpointRowToEndpoint(row);
    });
  }

  deleteEndpoint(workspaceId: number, id: number): Promise<boolean> {
    return guarded(async () => {
      // Its outbox rows go with it (ON DELETE CASCADE; SQLite's connections turn foreign keys on).
      const result = await this.db.deleteFrom('webhook_endpoints').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    });
  }

  listDeliveries(endpointId: number, limit: number): Promise<WebhookDelivery[]> {
    return guarded(async () => (await this.db.selectFrom('webhook_deliveries').selectAll()
      .where('endpoint_id', '=', endpointId).orderBy('id', 'desc').limit(limit).execute()).map(deliveryRowToDelivery));
  }

  redeliver(endpointId: number, deliveryId: number): Promise<boolean> {
    return guarded(async () => {
      const result = await this.db.updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: 0, claimed_until: null, delivered_at: null })
        .where('endpoint_id', '=', endpointId).where('id', '=', deliveryId).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
  }
}
