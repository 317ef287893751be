import { InvalidArgumentError } from 'commander';
import ms from 'ms';
import { findSoleWorkspaceId } from '../links/find-sole-workspace.js';
import { LinkforgeError } from '../core/errors.js';
import { LINK_REDIRECT_STATUSES, type LinkRedirectStatus } from '../core/link.js';
import { NO_USERS_YET } from './print-listing.js';
import type { LinkTransferDeps } from '../links/link-services.js';
import { UsageError } from './cli-errors.js';

export function parseId(value: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1) throw new InvalidArgumentError('must be a positive integer.');
  return id;
}

/** `--expires`: an ISO date (`2027-01-31`, `2027-01-31T12:00:00Z`) or a duration from now (`7d`, `12h`). */
export function parseExpiry(value: string, now = Date.now()): number {
  const duration = /^\d+(ms|s|m|h|d|w|y)$/.test(value) ? ms(value as ms.StringValue) : undefined;
  if (typeof duration === 'number') return now + duration;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new InvalidArgumentError('must be an ISO date (2027-01-31T12:00:00Z) or a duration (7d, 12h).');
  return at;
}

/** `--redirect-status`: 301, 302, 307 or 308. */
export function parseRedirectStatus(value: string): LinkRedirectStatus {
  const status = Number(value) as LinkRedirectStatus;
  if (!LINK_REDIRECT_STATUSES.includes(status)) throw new InvalidArgumentError('must be 301, 302, 307 or 308.');
  return status;
}

/** `--workspace`, or the only workspace there is. */
export async function targetWorkspace(transfer: LinkTransferDeps, given: number | undefined): Promise<number> {
  if (given !== undefined) return given;
  const sole = await findSoleWorkspaceId(transfer);
  if (sole === 'none') throw new LinkforgeError('workspace_not_found', NO_USERS_YET);
  if (sole === 'several') throw new UsageError('--workspace ID is required when the database holds several workspaces (`linkforge workspace list` shows them)');
  return sole;
}
