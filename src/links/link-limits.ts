import { parseDestination, type UrlPolicy } from '../core/canonical-url.js';
import { assertMaxClicks } from '../core/click-limit.js';
import { ValidationError } from '../core/errors.js';
import type { Link } from '../core/link.js';
import { withOption, type LinkOptions } from '../core/link-options.js';
import type { LinkChanges } from '../core/ports.js';
import type { TransferLink } from '../core/link-transfer-ports.js';

/** The click limit and the fallback URL as a create or an edit gives them; absent leaves them, null removes them. */
export interface LimitFields {
  readonly maxClicks?: number | null;
  readonly fallbackUrl?: unknown;
}

/**
 * A fallback URL passes the rules of a destination (scheme, private addresses, blocklist, this
 * service's own domain), since a visitor is sent to it the same way; a broken rule is a 400 naming
 * `fallbackUrl`.
 */
export function parseFallbackUrl(raw: unknown, policy: UrlPolicy): string | null | undefined {
  if (raw === undefined || raw === null) return raw;
  try {
    return parseDestination(raw, policy).originalUrl;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(error.code as ConstructorParameters<typeof ValidationError>[0], `fallbackUrl: ${error.message}`, { ...error.extra, field: 'fallbackUrl' });
  }
}

/** What a new link stores of its limit and fallback: the clicks left start at the limit. */
export function newLinkLimits(fields: LimitFields, policy: UrlPolicy): { maxClicks: number | null; options: LinkOptions | null } {
  assertMaxClicks(fields.maxClicks, 'maxClicks');
  const fallbackUrl = parseFallbackUrl(fields.fallbackUrl, policy);
  return { maxClicks: fields.maxClicks ?? null, options: withOption(null, 'fallbackUrl', fallbackUrl) };
}

/**
 * The changes an edit makes: a new limit gives back all of its clicks; a fallback URL is merged
 * into the link's other options, which other fields of the edit leave as they are.
 */
export function limitChanges(link: Link, fields: LimitFields, policy: UrlPolicy): Pick<LinkChanges, 'maxClicks' | 'options'> {
  assertMaxClicks(fields.maxClicks, 'maxClicks');
  const fallbackUrl = parseFallbackUrl(fields.fallbackUrl, policy);
  return {
    ...(fields.maxClicks === undefined ? {} : { maxClicks: fields.maxClicks }),
    ...(fallbackUrl === undefined ? {} : { options: withOption(link.options, 'fallbackUrl', fallbackUrl) }),
  };
}


/** An imported row's limit and fallback by the API's rules; its clicks left never exceed its limit. */
export function importedLimits(fields: Pick<TransferLink, 'maxClicks' | 'clicksLeft' | 'options'>, policy: UrlPolicy): Pick<TransferLink, 'maxClicks' | 'clicksLeft' | 'options'> {
  const maxClicks = fields.maxClicks ?? null;
  assertMaxClicks(maxClicks, 'max_clicks');
  const fallbackUrl = parseFallbackUrl(fields.options?.fallbackUrl, policy);
  return {
    maxClicks,
    clicksLeft: maxClicks === null ? null : Math.min(fields.clicksLeft ?? maxClicks, maxClicks),
    options: withOption(fields.options, 'fallbackUrl', fallbackUrl),
  };
}
