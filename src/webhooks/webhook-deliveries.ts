import { LinkforgeError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import type { WebhookDelivery } from '../core/webhook-ports.js';
import { getWebhook } from './manage-webhooks.js';
import type { WebhookServices } from './webhook-services.js';

export const LISTED_DELIVERIES = 50;

/** The endpoint's last 50 deliveries, newest first. */
export async function listDeliveries(deps: WebhookServices, principal: Principal, workspaceId: number, webhookId: number): Promise<WebhookDelivery[]> {
  const endpoint = await getWebhook(deps, principal, workspaceId, webhookId);
  return deps.store.listDeliveries(endpoint.id, LISTED_DELIVERIES);
}

/** Sends a delivery again, whatever became of it: due now, with the same `webhook-id`, attempts counted afresh. */
export async function redeliver(deps: WebhookServices, principal: Principal, workspaceId: number, webhookId: number, deliveryId: number): Promise<void> {
  const endpoint = await getWebhook(deps, principal, workspaceId, webhookId);
  if (!await deps.store.redeliver(endpoint.id, deliveryId)) throw new LinkforgeError('webhook_delivery_not_found');
}
