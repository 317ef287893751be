import type { LinkOptions, LinkRoute, LinkVariant, RouteDevice } from './link-options.js';
import murmurhash from 'murmurhash';

/** What a route can be matched against: only what the link's routes ask for need be known. */
export interface RoutingVisitor {
  /** ISO 3166-1 alpha-2, upper case; absent when unknown. */
  readonly country?: string;
  /** Every family the visitor's device belongs to: an iPhone is both `ios` and `mobile`. */
  readonly devices: readonly RouteDevice[];
  /** Primary language subtags, lower case, most preferred first. */
  readonly languages: readonly string[];
}

/** Which rule chose the destination: a route or a variant by its index, or the link's own URL. */
export type Served = `route:${number}` | `variant:${number}` | 'link';

export interface Destination {
  readonly url: string;
  readonly served: Served;
}

/**
 * Where a visit goes (ADR 0031): the first route whose every condition matches; else the variant
 * that `draw` (0 ≤ draw < 1) falls in, each taking a share of [0, 1) in proportion to its weight;
 * else the link's own URL.
 */
export function chooseDestination(linkUrl: string, options: LinkOptions | undefined, visitor: RoutingVisitor, draw: number): Destination {
  return matchingRoute(options?.routes, visitor) ?? chosenVariant(options?.variants, draw) ?? { url: linkUrl, served: 'link' };
}

/** The first route whose every condition matches, or undefined. */
export function matchingRoute(routes: readonly LinkRoute[] | undefined, visitor: RoutingVisitor): Destination | undefined {
  const index = routes?.findIndex((route) => routeMatches(route, visitor)) ?? -1;
  return index === -1 ? undefined : { url: routes![index]!.url, served: `route:${index}` };
}

/** The variant `draw` falls in, or undefined without variants. */
export function chosenVariant(variants: readonly LinkVariant[] | undefined, draw: number): Destination | undefined {
  if (variants === undefined || variants.length === 0) return undefined;
  const index = variantIndex(variants, draw);
  return { url: variants[index]!.url, served: `variant:${index}` };
}

export function routeMatches(route: LinkRoute, visitor: RoutingVisitor): boolean {
  if (route.country !== undefined && (visitor.country === undefined || !route.country.includes(visitor.country))) return false;
  if (route.device !== undefined && !route.device.some((device) => visitor.devices.includes(device))) return false;
  if (route.language !== undefined && !route.language.some((language) => visitor.languages.includes(language))) return false;
  return true;
}

function variantIndex(variants: readonly LinkVariant[], draw: number): number {
  const total = variants.reduce((sum, variant) => sum + variant.weight, 0);
  let point = Math.min(Math.max(draw, 0), 1) * total;
  for (let index = 0; index < variants.length - 1; index++) {
    point -= variants[index]!.weight;
    if (point < 0) return index;
  }
  return variants.length - 1;
}

/** What a link's routes ask of the visitor, so that a visit pays only for the lookups they need. */
export interface RoutingNeeds {
  readonly country: boolean;
  readonly device: boolean;
  readonly language: boolean;
}

export function routingNeedsOf(options: LinkOptions | undefined): RoutingNeeds {
  const routes = options?.routes ?? [];
  return {
    country: routes.some((route) => route.country !== undefined),
    device: routes.some((route) => route.device !== undefined),
    language: routes.some((route) => route.language !== undefined),
  };
}

export function hasRouting(options: LinkOptions | undefined): boolean {
  return (options?.routes?.length ?? 0) > 0 || (options?.variants?.length ?? 0) > 0;
}

/**
 * A visitor's draw in [0, 1) for a link: MurmurHash3 of address, User-Agent and link, seeded from
 * the day's salt, so the same visitor of a link draws the same number all day and another number
 * the next. Not the visitor id's HMAC (ADR 0028): a draw is never stored or compared, so it needs
 * no secret strength, and a redirect would pay the HMAC's microseconds on every routed hit (ADR 0031).
 */
export function drawOfVisitor(daySeed: number, address: string, userAgent: string, linkId: number): number {
  const key = `${address}\n${userAgent}\n${linkId}`;
  // Latin-1 bytes into one reused buffer: header values are Latin-1 strings already, and the hash's
  // own TextEncoder allocated and encoded anew on every routed redirect (ADR 0031).
  if (key.length > KEY_BYTES.length) return murmurhash.v3(key, daySeed) / 2 ** 32;
  const length = KEY_BYTES.write(key, 0, 'latin1');
  return murmurhash.v3(KEY_BYTES.subarray(0, length), daySeed) / 2 ** 32;
}

const KEY_BYTES = Buffer.alloc(2048);
