import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Link, LinkRedirectStatus, LinkStatus, NewLink, RedirectTarget } from '../core/link.js';
import type { LinkChanges } from '../core/ports.js';
import { extrasOf, parseStoredOptions, storedOptions } from '../core/link-options.js';
import type { LinkRow } from './schema.js';

/** What the redirect lookup reads of a link row: no more, since a cache miss pays for every column. */
export type RedirectRow = Pick<Selectable<LinkRow>, typeof REDIRECT_COLUMNS[number]>;
/** The columns of a redirect row, in the order every lookup (the store's, the change follower's) selects them. */
export const REDIRECT_COLUMNS = ['id', 'original_url', 'expires_at', 'status', 'link_type', 'disabled_reason', 'redirect_status', 'options', 'password_hash', 'max_clicks'] as const;

const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * The driver hands every row a fresh copy of its status string; a cached target keeps the one
 * shared literal instead, a saving on every LRU entry (measured in docs/adr/0020).
 */
const STATUSES: Readonly<Record<string, LinkStatus>> = { ACTIVE: 'ACTIVE', EXPIRED: 'EXPIRED', DELETED: 'DELETED' };

/** The driver may answer PostgreSQL's integer as a string. */
const redirectStatusOf = (value: unknown) => (value === null || value === undefined ? null : Number(value) as LinkRedirectStatus);

export function redirectTargetOf(row: RedirectRow | undefined): RedirectTarget | undefined {
  if (row === undefined) return undefined;
  const plain = {
    url: row.original_url,
    expiresAt: nullableNumber(row.expires_at),
    status: STATUSES[row.status] ?? row.status,
    linkId: Number(row.id),
    permanent: row.link_type === 'PERMANENT',
  };
  // Only a link with a status of its own, options, or a disabled one, carries more: every other entry keeps the one lean shape.
  let target: RedirectTarget = row.redirect_status === null ? plain : { ...plain, redirectStatus: redirectStatusOf(row.redirect_status)! };
  const extras = extrasOf(parseStoredOptions(row.options), row.password_hash, nullableNumber(row.max_clicks));
  if (extras !== undefined) target = { ...target, extras };
  return row.disabled_reason === null ? target : { ...target, status: 'DISABLED', disabledReason: row.disabled_reason };
}

export function linkRowToLink(row: Selectable<LinkRow>): Link {
  return {
    id: Number(row.id),
    domain: row.domain,
    code: row.code,
    originalUrl: row.original_url,
    normalizedUrl: row.normalized_url,
    linkType: row.link_type,
    status: row.status,
    workspaceId: nullableNumber(row.workspace_id),
    ownerId: nullableNumber(row.owner_id),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: nullableNumber(row.expires_at),
    deletedAt: nullableNumber(row.deleted_at),
    redirectCount: Number(row.redirect_count),
    avgRedirectMs: Number(row.avg_redirect_ms),
    humanCount: Number(row.human_count),
    destinationStatus: nullableNumber(row.destination_status),
    lastCheckedAt: nullableNumber(row.last_checked_at),
    disabledAt: nullableNumber(row.disabled_at),
    disabledReason: row.disabled_reason,
    redirectStatus: redirectStatusOf(row.redirect_status),
    options: parseStoredOptions(row.options),
    passwordHash: row.password_hash,
    maxClicks: nullableNumber(row.max_clicks),
    clicksLeft: nullableNumber(row.clicks_left),
  };
}

/** A new link's row, in the column order of the compiled INSERT. */
export function newLinkRow(link: NewLink): Insertable<LinkRow> {
  return {
    domain: link.domain,
    code: link.code,
    original_url: link.originalUrl,
    normalized_url: link.normalizedUrl,
    link_type: link.linkType,
    status: 'ACTIVE',
    workspace_id: link.workspaceId,
    owner_id: link.ownerId,
    claim_token_hash: link.claimTokenHash,
    created_at: link.createdAt,
    updated_at: link.createdAt,
    expires_at: link.expiresAt,
    deleted_at: null,
    destination_status: null,
    last_checked_at: null,
    redirect_status: link.redirectStatus ?? null,
    options: storedOptions(link.options),
    password_hash: link.passwordHash ?? null,
    max_clicks: link.maxClicks ?? null,
    clicks_left: link.maxClicks ?? null,
  };
}

/** The option columns a change sets: a new limit sets the clicks left afresh. */
export function optionColumns(changes: LinkChanges): Updateable<LinkRow> {
  const values: Updateable<LinkRow> = {};
  if (changes.options !== undefined) values.options = storedOptions(changes.options);
  if (changes.passwordHash !== undefined) values.password_hash = changes.passwordHash;
  if (changes.maxClicks !== undefined) Object.assign(values, { max_clicks: changes.maxClicks, clicks_left: changes.maxClicks });
  return values;
}
