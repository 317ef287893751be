import type { Generated } from 'kysely';

/** A workspace's webhook receiver (migration 025); `events` is core/webhook-events.ts's bit set. */
export interface WebhookEndpointRow {
  id: Generated<number>;
  workspace_id: number;
  url: string;
  events: number;
  /** `whsec_…`, kept to sign with (ADR 0035). */
  secret: string;
  enabled: number;
  disabled_reason: string | null;
  /** When the first of the deliveries failing since the last success failed; null while they succeed. */
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

/** The outbox: one event for one endpoint, and how its delivery goes (migration 025). */
export interface WebhookDeliveryRow {
  id: Generated<number>;
  endpoint_id: number;
  event_type: string;
  link_id: number | null;
  /** The link's row as JSON when the event happened, or a click batch's `{ clicks }`. */
  payload: string;
  occurred_at: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: number;
  /** While an instance delivers it; a lapsed claim (the instance died) lets another take it. */
  claimed_until: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
}
