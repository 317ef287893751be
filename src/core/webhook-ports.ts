import type { WebhookEvent } from './webhook-events.js';

/** A workspace's webhook receiver, without its secret (shown once, at creation). */
export interface WebhookEndpoint {
  readonly id: number;
  readonly workspaceId: number;
  readonly url: string;
  readonly events: readonly WebhookEvent[];
  readonly enabled: boolean;
  /** Why the delivery job disabled it; null when enabled, or disabled by a person. */
  readonly disabledReason: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface NewWebhookEndpoint {
  readonly workspaceId: number;
  readonly url: string;
  readonly events: readonly WebhookEvent[];
  readonly secret: string;
  readonly createdAt: number;
}

/** Enabling clears the reason and the failing streak; absent fields stay. */
export interface WebhookEndpointChanges {
  readonly url?: string;
  readonly events?: readonly WebhookEvent[];
  readonly enabled?: boolean;
  readonly updatedAt: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one endpoint, and how its delivery went. */
export interface WebhookDelivery {
  readonly id: number;
  readonly eventType: string;
  readonly linkId: number | null;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  /** Null once delivered or given up. */
  readonly nextAttemptAt: number | null;
  readonly occurredAt: number;
  readonly deliveredAt: number | null;
}

/** The endpoints and their deliveries, scoped by workspace (a stranger's id finds nothing). */
export interface WebhookStore {
  insertEndpoint(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint>;
  listEndpoints(workspaceId: number): Promise<WebhookEndpoint[]>;
  findEndpoint(workspaceId: number, id: number): Promise<WebhookEndpoint | undefined>;
  updateEndpoint(workspaceId: number, id: number, changes: WebhookEndpointChanges): Promise<WebhookEndpoint | undefined>;
  deleteEndpoint(workspaceId: number, id: number): Promise<boolean>;
  /** The endpoint's latest deliveries, newest first. */
  listDeliveries(endpointId: number, limit: number): Promise<WebhookDelivery[]>;
  /** Makes a delivery due again now, attempts from zero; false when the endpoint has no such delivery. */
  redeliver(endpointId: number, deliveryId: number): Promise<boolean>;
}

/** A delivery an instance has claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  readonly id: number;
  readonly url: string;
  readonly secret: string;
  readonly eventType: string;
  /** The outbox's JSON: a link's row (snake_case) or a click batch. */
  readonly payload: string;
  readonly occurredAt: number;
  /** Counting this one. */
  readonly attempts: number;
}

export interface DeliveryFailure {
  readonly lastStatus: number | null;
  readonly lastError: string;
  /** Undefined: given up. */
  readonly nextAttemptAt: number | undefined;
  /** The endpoint is disabled with `reason` when its deliveries have been failing since this time or before. */
  readonly disableIfFailingSince: number;
  readonly reason: string;
}

/** The delivery job's side of the outbox (ADR 0035). */
export interface WebhookOutbox {
  /**
   * Claims up to `limit` due deliveries of enabled endpoints until `claimedUntil`, atomically: no
   * two instances hold one at once. Only the oldest undelivered event of a link for an endpoint is
   * due, so one link's events arrive in order.
   */
  claimDue(now: number, claimedUntil: number, limit: number): Promise<ClaimedDelivery[]>;
  recordDelivered(id: number, lastStatus: number, now: number): Promise<void>;
  recordFailed(id: number, failure: DeliveryFailure, now: number): Promise<void>;
}

/** Where a webhook URL leads: an allowed address, an internal one (refused), or nowhere (its name does not resolve). */
export type WebhookAddressVerdict = 'allowed' | 'refused' | 'unresolved';
export type WebhookAddressCheck = (url: URL) => Promise<WebhookAddressVerdict>;

/** How many visits one link got in a flush. */
export interface LinkClicks {
  readonly linkId: number;
  readonly count: number;
}

/**
 * The `link.clicked` side of the outbox: one row per enabled endpoint that asked for it, carrying
 * its workspace's links of the flush. `clicks` is called only when some endpoint asked: counting a
 * flush's clicks is a pass over all its visits, on the thread that answers redirects.
 */
export interface WebhookClickOutbox {
  enqueueClicks(clicks: () => readonly LinkClicks[], now: number): Promise<void>;
}
