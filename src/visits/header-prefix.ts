/**
 * Bounds on the header values a visit keeps until its flush. A hostile client can send kilobytes
 * of User-Agent or Referer with every request; what is kept of them is what classification reads
 * (ADR 0013, "Classification off the redirect's way").
 */

/** User-Agent characters classification reads (visit-classifier.ts). */
export const MAX_USER_AGENT = 512;
/** Referer characters kept: its scheme, user info, host and port always fit in far fewer. */
export const MAX_REFERER = 1_024;

/**
 * The first `max` characters of `value`, as a string of its own: V8 makes a slice a view that
 * keeps the whole value alive, and a buffer full of views would hold every kilobyte it meant to drop.
 */
export function headerPrefix(value: string, max: number): string {
  if (value.length <= max) return value;
  return Buffer.from(value.slice(0, max), 'utf8').toString('utf8');
}

/**
 * The part of a Referer its host is read from. A long one is cut where its path, query or
 * fragment starts, so that the host survives; '' (no referrer) when even that is too long.
 */
export function refererPrefix(value: string): string {
  if (value.length <= MAX_REFERER) return value;
  const afterScheme = value.indexOf('//');
  if (afterScheme < 0 || afterScheme > 16) return '';
  const end = value.slice(afterScheme + 2, MAX_REFERER + 1).search(/[/?#]/);
  return end < 0 ? '' : headerPrefix(value, afterScheme + 2 + end);
}
