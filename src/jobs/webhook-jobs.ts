import type { Config } from '../config.js';
import type { ShortUrls } from '../core/short-urls.js';
import type { Clock } from '../core/ports.js';
import type { WebhookAddressCheck, WebhookOutbox } from '../core/webhook-ports.js';
import { addressPolicy, DestinationRefusedError, systemResolver, vetHost, type Resolver } from './destination-address.js';
import { JobScheduler } from './job-scheduler.js';
import { WebhookDeliveryJob } from './webhook-delivery.js';
import { sendWebhook } from './webhook-sender.js';

const BATCH_SIZE = 20;

export interface WebhookJobs {
  readonly job: WebhookDeliveryJob;
  readonly scheduler: JobScheduler;
  /** Where a webhook URL may point, by the destination health check's rules. */
  readonly checkAddress: WebhookAddressCheck;
  stop(): Promise<void>;
}

export interface WebhookJobsDeps {
  readonly settings: Config['webhooks'];
  readonly allowPrivateDestinations: boolean;
  readonly urls: ShortUrls;
  readonly clock: Clock;
  readonly outbox: WebhookOutbox;
  /** The system resolver unless a test brings its own. */
  readonly resolve?: Resolver;
}

export function createWebhookJobs(deps: WebhookJobsDeps): WebhookJobs {
  const policy = addressPolicy(deps.resolve ?? systemResolver, deps.allowPrivateDestinations);
  const job = new WebhookDeliveryJob({
    outbox: deps.outbox,
    clock: deps.clock,
    send: (url, headers, body) => sendWebhook(url, headers, body, policy),
    settings: { ...deps.settings, batchSize: BATCH_SIZE, urls: deps.urls },
  });
  const scheduler = new JobScheduler({ run: ({ log }) => job.run({ log }) }, {
    initialDelayMs: deps.settings.pollIntervalMs,
    intervalMs: deps.settings.pollIntervalMs,
  });
  return {
    job,
    scheduler,
    checkAddress: async (url) => {
      try {
        await vetHost(url.hostname, policy);
        return 'allowed';
      } catch (error) {
        return error instanceof DestinationRefusedError ? 'refused' : 'unresolved';
      }
    },
    stop: async () => {
      job.stop();
      await scheduler.stop();
    },
  };
}
