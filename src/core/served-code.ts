import type { LinkOptions } from './link-options.js';
import type { Served } from './link-routing.js';

/**
 * What a route or variant served, as the small number a buffered visit carries (one byte, no
 * string per visit): 0 for nothing (a plain link, or a routed link's own URL), 1 + i for route i,
 * VARIANT_BASE + i for variant i. A link holds at most 10 routes and 10 variants (http/link-fields.ts);
 * 128 routes or variants would still fit a byte.
 */
export const NOTHING_SERVED = 0;
const VARIANT_BASE = 128;

export function servedCode(served: Served): number {
  if (served === 'link') return NOTHING_SERVED;
  // Slices, not a split: this runs on every routed redirect.
  return served.charCodeAt(0) === ROUTE_INITIAL ? 1 + Number(served.slice(ROUTE_PREFIX)) : VARIANT_BASE + Number(served.slice(VARIANT_PREFIX));
}

const ROUTE_INITIAL = 'r'.charCodeAt(0);
const ROUTE_PREFIX = 'route:'.length;
const VARIANT_PREFIX = 'variant:'.length;

/** The breakdown value of a code (`route:0`, `variant:1`); null for NOTHING_SERVED. */
export function servedOfCode(code: number): Served | null {
  if (code === NOTHING_SERVED) return null;
  return code < VARIANT_BASE ? `route:${code - 1}` : `variant:${code - VARIANT_BASE}`;
}

/** The most destinations a link's stats list: every route and variant a link may hold (10 of each). */
export const MAX_DESTINATIONS = 20;

/** The URL of the route or variant a breakdown value names in the link's current options; null when it is gone (or the value names none). */
export function servedUrl(options: LinkOptions | null | undefined, served: string): string | null {
  const match = /^(route|variant):(\d+)$/.exec(served);
  if (match === null) return null;
  const list = match[1] === 'route' ? options?.routes : options?.variants;
  return list?.[Number(match[2])]?.url ?? null;
}
