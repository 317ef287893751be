import { LinkforgeError, ValidationError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import { isWebhookEvent, newWebhookSecret, type WebhookEvent } from '../core/webhook-events.js';
import type { WebhookEndpoint } from '../core/webhook-ports.js';
import { MANAGER_ROLES } from '../accounts/add-member.js';
import { refuseApiKey } from '../accounts/workspace-access.js';
import { parseWebhookUrl } from './webhook-url.js';
import type { WebhookServices } from './webhook-services.js';

export interface CreatedWebhook extends WebhookEndpoint {
  /** `whsec_…`: shown in this answer only. */
  readonly secret: string;
}

export interface WebhookInput {
  readonly url?: string;
  readonly events?: readonly string[];
  readonly enabled?: boolean;
}

function parseEvents(events: readonly string[]): WebhookEvent[] {
  const unique = [...new Set(events)];
  if (unique.length === 0 || !unique.every(isWebhookEvent)) throw new ValidationError('webhook_events_invalid');
  return unique;
}

/** Owners and admins manage a workspace's webhooks; other members get 403, strangers 404. */
const requireManager = (deps: WebhookServices, principal: Principal, workspaceId: number) =>
  deps.workspaces.requireRole(principal, workspaceId, MANAGER_ROLES);

/**
 * An endpoint sends the workspace's data to a URL of the caller's choosing for as long as it
 * exists, outliving a revoked key: as with keys and members, only a signed-in person sets one up or points it elsewhere.
 */
export async function createWebhook(deps: WebhookServices, principal: Principal, workspaceId: number, input: Required<Pick<WebhookInput, 'url' | 'events'>>): Promise<CreatedWebhook> {
  await requireManager(deps, principal, workspaceId);
  refuseApiKey(principal, 'create webhooks');
  const events = parseEvents(input.events);
  const url = await parseWebhookUrl(input.url, deps.checkAddress);
  const secret = newWebhookSecret();
  const endpoint = await deps.store.insertEndpoint({ workspaceId, url, events, secret, createdAt: deps.clock.now() });
  return { ...endpoint, secret };
}

export async function listWebhooks(deps: WebhookServices, principal: Principal, workspaceId: number): Promise<WebhookEndpoint[]> {
  await requireManager(deps, principal, workspaceId);
  return deps.store.listEndpoints(workspaceId);
}

export async function getWebhook(deps: WebhookServices, principal: Principal, workspaceId: number, id: number): Promise<WebhookEndpoint> {
  await requireManager(deps, principal, workspaceId);
  const endpoint = await deps.store.findEndpoint(workspaceId, id);
  if (endpoint === undefined) throw new LinkforgeError('webhook_not_found');
  return endpoint;
}

export async function updateWebhook(deps: WebhookServices, principal: Principal, workspaceId: number, id: number, input: WebhookInput): Promise<WebhookEndpoint> {
  await requireManager(deps, principal, workspaceId);
  if (input.url !== undefined) refuseApiKey(principal, 'change a webhook\'s URL');
  const events = input.events === undefined ? undefined : parseEvents(input.events);
  const url = input.url === undefined ? undefined : await parseWebhookUrl(input.url, deps.checkAddress);
  const endpoint = await deps.store.updateEndpoint(workspaceId, id, { url, events, enabled: input.enabled, updatedAt: deps.clock.now() });
  if (endpoint === undefined) throw new LinkforgeError('webhook_not_found');
  return endpoint;
}

export async function deleteWebhook(deps: WebhookServices, principal: Principal, workspaceId: number, id: number): Promise<void> {
  await requireManager(deps, principal, workspaceId);
  if (!await deps.store.deleteEndpoint(workspaceId, id)) throw new LinkforgeError('webhook_not_found');
}
