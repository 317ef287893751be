import { createHmac } from 'node:crypto';
import { sharedRandomPool } from './random-pool.js';

/** The events an endpoint can ask for, and each one's bit in `webhook_endpoints.events` (migration 025 spells the same bits). */
export const WEBHOOK_EVENTS = {
  'link.created': 1,
  'link.updated': 2,
  'link.deleted': 4,
  'link.expired': 8,
  'link.limit_reached': 16,
  'link.clicked': 32,
} as const;

export type WebhookEvent = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_NAMES = Object.keys(WEBHOOK_EVENTS) as WebhookEvent[];

export const isWebhookEvent = (name: string): name is WebhookEvent => Object.hasOwn(WEBHOOK_EVENTS, name);

export const eventBits = (events: readonly WebhookEvent[]): number => events.reduce((bits, event) => bits | WEBHOOK_EVENTS[event], 0);
export const eventsOfBits = (bits: number): WebhookEvent[] => WEBHOOK_EVENT_NAMES.filter((event) => (bits & WEBHOOK_EVENTS[event]) !== 0);

const SECRET_PREFIX = 'whsec_';

/** A signing secret as Standard Webhooks spells it: `whsec_` and the base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + sharedRandomPool.take(24).toString('base64');
}

/**
 * The `webhook-signature` header's value (Standard Webhooks): `v1,` and the base64 HMAC-SHA256 of
 * `id.timestamp.body`, keyed with the secret's bytes after `whsec_`.
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The `webhook-id` header: one per outbox row, the same on every retry, so a receiver can drop duplicates. */
export const webhookMessageId = (deliveryId: number): string => `msg_${deliveryId}`;
