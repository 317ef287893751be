import type { WorkspaceAccess } from '../accounts/workspace-access.js';
import type { Clock } from '../core/ports.js';
import type { WebhookAddressCheck, WebhookStore } from '../core/webhook-ports.js';

/** The webhooks module's services bag, built once in deps.ts. */
export interface WebhookServices {
  readonly store: WebhookStore;
  readonly workspaces: Pick<WorkspaceAccess, 'requireRole'>;
  readonly clock: Clock;
  /** The destination health check's address rules (jobs/destination-address.ts, ADR 0015). */
  readonly checkAddress: WebhookAddressCheck;
}
