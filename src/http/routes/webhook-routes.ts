import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENT_NAMES } from '../../core/webhook-events.js';
import type { WebhookDelivery, WebhookEndpoint } from '../../core/webhook-ports.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook } from '../../webhooks/manage-webhooks.js';
import { listDeliveries, redeliver } from '../../webhooks/webhook-deliveries.js';
import type { WebhookServices } from '../../webhooks/webhook-services.js';
import { MAX_WEBHOOK_URL_LENGTH } from '../../webhooks/webhook-url.js';
import { JWT_OR_API_KEY_SECURITY, principalOf } from '../auth.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const EventName = Type.String({ enum: WEBHOOK_EVENT_NAMES, maxLength: 40 });
const Events = Type.Array(EventName, { minItems: 1, maxItems: WEBHOOK_EVENT_NAMES.length * 2 });
const Url = Type.String({ minLength: 1, maxLength: MAX_WEBHOOK_URL_LENGTH });
const WorkspaceParams = Type.Object({ id: Id });
const WebhookParams = Type.Object({ id: Id, webhookId: Id });

const WebhookJson = Type.Object({
  id: Type.Integer(), workspace_id: Type.Integer(), url: Type.String(), events: Type.Array(Type.String()), enabled: Type.Boolean(),
  disabled_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why deliveries disabled the endpoint (they failed for the retry window); null otherwise.' }),
  created_at: Timestamp, updated_at: Timestamp,
}, { $id: 'Webhook' });
const CreatedWebhookJson = Type.Object({
  ...WebhookJson.properties,
  secret: Type.String({ description: 'The signing secret (`whsec_…`), shown only in this answer. Verify `webhook-signature` with it (Standard Webhooks).' }),
});
const DeliveryJson = Type.Object({
  id: Type.Integer({ description: 'Also the number in the `webhook-id` header (`msg_<id>`).' }),
  event_type: Type.String(), link_id: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(), last_status: Type.Union([Type.Integer(), Type.Null()]), last_error: Type.Union([Type.String(), Type.Null()]),
  next_attempt_at: NullableTimestamp, occurred_at: Timestamp, delivered_at: NullableTimestamp,
});

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
const webhookToJson = (w: WebhookEndpoint) => ({
  id: w.id, workspace_id: w.workspaceId, url: w.url, events: [...w.events], enabled: w.enabled, disabled_reason: w.disabledReason,
  created_at: iso(w.createdAt), updated_at: iso(w.updatedAt),
});
const deliveryToJson = (d: WebhookDelivery) => ({
  id: d.id, event_type: d.eventType, link_id: d.linkId, status: d.status, attempts: d.attempts, last_status: d.lastStatus, last_error: d.lastError,
  next_attempt_at: isoOrNull(d.nextAttemptAt), occurred_at: iso(d.occurredAt), delivered_at: isoOrNull(d.deliveredAt),
});

/** A key needs workspace:admin; even then it may not create an endpoint or change its URL (ADR 0035). */
const routeBasics = (context: RouteContext) => ({
  preHandler: context.guards.requireUserOrApiKey,
  config: { apiKeyScope: 'workspace:admin' as const },
  common: { tags: ['webhooks'], security: JWT_OR_API_KEY_SECURITY },
  base: '/api/v1/workspaces/:id/webhooks',
});

/** `/api/v1/workspaces/{id}/webhooks` (ADR 0035): owners and admins only; other members get 403, strangers 404. */
export function registerWebhookRoutes(app: FastifyInstance, webhooks: WebhookServices, context: RouteContext): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  const { preHandler, config, common, base } = routeBasics(context);

  typedApp.post(base, {
    preHandler, config,
    schema: {
      ...common, operationId: 'createWebhook', summary: 'Register a webhook endpoint; its signing secret is shown once', params: WorkspaceParams,
      body: Type.Object({ url: Url, events: Events }, { additionalProperties: false }),
      response: { 201: CreatedWebhookJson, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request, reply) => {
    const created = await createWebhook(webhooks, principalOf(request), request.params.id, request.body);
    reply.status(201).header('location', `/api/v1/workspaces/${created.workspaceId}/webhooks/${created.id}`);
    return { ...webhookToJson(created), secret: created.secret };
  });

  typedApp.get(base, {
    preHandler, config,
    schema: { ...common, operationId: 'listWebhooks', summary: 'The workspace\'s webhook endpoints, without secrets', params: WorkspaceParams, response: { 200: Type.Object({ webhooks: Type.Array(WebhookJson) }), ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request) => ({ webhooks: (await listWebhooks(webhooks, principalOf(request), request.params.id)).map(webhookToJson) }));

  typedApp.get(`${base}/:webhookId`, {
    preHandler, config,
    schema: { ...common, operationId: 'getWebhook', summary: 'One webhook endpoint', params: WebhookParams, response: { 200: WebhookJson, ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request) => webhookToJson(await getWebhook(webhooks, principalOf(request), request.params.id, request.params.webhookId)));

  typedApp.patch(`${base}/:webhookId`, {
    preHandler, config,
    schema: {
      ...common, operationId: 'updateWebhook', summary: 'Change an endpoint\'s URL or events, or enable or disable it (enabling clears the disabled reason)', params: WebhookParams,
      body: Type.Object({ url: Type.Optional(Url), events: Type.Optional(Events), enabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      response: { 200: WebhookJson, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request) => webhookToJson(await updateWebhook(webhooks, principalOf(request), request.params.id, request.params.webhookId, request.body)));

  typedApp.delete(`${base}/:webhookId`, {
    preHandler, config,
    schema: { ...common, operationId: 'deleteWebhook', summary: 'Delete an endpoint and its deliveries', params: WebhookParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request, reply) => {
    await deleteWebhook(webhooks, principalOf(request), request.params.id, request.params.webhookId);
    return reply.status(204).send(null);
  });
  registerDeliveryRoutes(app, webhooks, context);
}

/** An endpoint's last deliveries, and sending one again. */
function registerDeliveryRoutes(app: FastifyInstance, webhooks: WebhookServices, context: RouteContext): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  const { preHandler, config, common, base } = routeBasics(context);
  typedApp.get(`${base}/:webhookId/deliveries`, {
    preHandler, config,
    schema: { ...common, operationId: 'listWebhookDeliveries', summary: 'The endpoint\'s last 50 deliveries, newest first', params: WebhookParams, response: { 200: Type.Object({ deliveries: Type.Array(DeliveryJson) }), ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request) => ({ deliveries: (await listDeliveries(webhooks, principalOf(request), request.params.id, request.params.webhookId)).map(deliveryToJson) }));

  typedApp.post(`${base}/:webhookId/deliveries/:deliveryId/redeliver`, {
    preHandler, config,
    schema: {
      ...common, operationId: 'redeliverWebhook', summary: 'Send a delivery again now, with the same webhook-id', params: Type.Object({ id: Id, webhookId: Id, deliveryId: Id }),
      response: { 202: Type.Null(), ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request, reply) => {
    await redeliver(webhooks, principalOf(request), request.params.id, request.params.webhookId, request.params.deliveryId);
    return reply.status(202).send(null);
  });
}
