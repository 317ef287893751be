import type { Clock } from '../core/ports.js';
import type { ShortUrls } from '../core/short-urls.js';
import { signWebhook, webhookMessageId } from '../core/webhook-events.js';
import { webhookBody } from '../core/webhook-payload.js';
import type { ClaimedDelivery, WebhookOutbox } from '../core/webhook-ports.js';
import { nextAttemptAt } from '../core/webhook-retry.js';
import type { JobLogger } from './exclusive-job.js';
import type { SendResult } from './webhook-sender.js';

export interface WebhookDeliverySettings {
  readonly retryDelaysMs: readonly number[];
  readonly giveUpAfterMs: number;
  readonly claimTtlMs: number;
  /** Deliveries claimed and sent at once. */
  readonly batchSize: number;
  /** The links' short addresses in the payloads: BASE_URL's, or a custom domain's. */
  readonly urls: ShortUrls;
}

export interface WebhookDeliveryDeps {
  readonly outbox: WebhookOutbox;
  readonly clock: Clock;
  readonly send: (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;
  readonly settings: WebhookDeliverySettings;
}

/**
 * The delivery job (ADR 0035): claims due deliveries, sends each one signed, records the answer.
 * Every instance runs it; the claim keeps one delivery with one instance at a time. A run goes on
 * while it finds work, so a backlog drains without waiting for the poll interval.
 */
export class WebhookDeliveryJob {
  private stopping = false;

  constructor(private readonly deps: WebhookDeliveryDeps) {}

  async run(options: { log?: JobLogger } = {}): Promise<number> {
    let sent = 0;
    while (!this.stopping) {
      const now = this.deps.clock.now();
      const claimed = await this.deps.outbox.claimDue(now, now + this.deps.settings.claimTtlMs, this.deps.settings.batchSize);
      if (claimed.length === 0) break;
      await Promise.all(claimed.map((delivery) => this.deliver(delivery).catch((error: unknown) => {
        options.log?.error({ err: error, delivery: delivery.id }, 'a webhook delivery could not be recorded; its claim lapses and it is sent again');
      })));
      sent += claimed.length;
    }
    return sent;
  }

  /** Ends the run after the deliveries in flight. */
  stop(): void {
    this.stopping = true;
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const { settings } = this.deps;
    const id = webhookMessageId(delivery.id);
    const body = webhookBody(delivery.eventType, delivery.occurredAt, delivery.payload, settings.urls);
    const timestamp = Math.floor(this.deps.clock.now() / 1000);
    const result = await this.deps.send(delivery.url, {
      'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(delivery.secret, id, timestamp, body),
    }, body);
    const now = this.deps.clock.now();
    if ('status' in result && result.status >= 200 && result.status < 300) {
      await this.deps.outbox.recordDelivered(delivery.id, result.status, now);
      return;
    }
    const lastError = 'status' in result ? `HTTP ${result.status}` : result.error;
    await this.deps.outbox.recordFailed(delivery.id, {
      lastStatus: 'status' in result ? result.status : null,
      lastError,
      nextAttemptAt: nextAttemptAt(delivery.attempts, delivery.occurredAt, now, settings.retryDelaysMs, settings.giveUpAfterMs),
      disableIfFailingSince: now - settings.giveUpAfterMs,
      reason: `Deliveries failed for ${Math.round(settings.giveUpAfterMs / 3_600_000 * 10) / 10} hours (last: ${lastError}).`,
    }, now);
  }
}
