import type { LinkOptions, LinkRoute, LinkVariant } from '../core/link-options.js';

/**
 * A link's routes and variants in Linkforge's export (ADR 0031): each a JSON list in its own
 * column (text in CSV, a list in JSON Lines), empty or null when the link has none. The reader
 * checks only that each is a list; the import holds every route and variant to the API's rules.
 */
export const ROUTING_COLUMNS = ['routes', 'variants'] as const;

export function routingCellsOf(options: LinkOptions | null | undefined): Record<(typeof ROUTING_COLUMNS)[number], string> {
  return {
    routes: options?.routes?.length ? JSON.stringify(options.routes) : '',
    variants: options?.variants?.length ? JSON.stringify(options.variants) : '',
  };
}

/** In JSON Lines, lists (or null), not text. */
export function routingJsonValues(record: Record<(typeof ROUTING_COLUMNS)[number], string>): Record<string, unknown> {
  return {
    routes: record.routes === '' ? null : JSON.parse(record.routes) as unknown,
    variants: record.variants === '' ? null : JSON.parse(record.variants) as unknown,
  };
}

/** The routes and variants of a read row, as options; null when it has neither (or is older than them). */
export function routingOptionsOf(routes: unknown, variants: unknown): LinkOptions | null {
  const routeList = listOf(routes, 'routes') as LinkRoute[] | undefined;
  const variantList = listOf(variants, 'variants') as LinkVariant[] | undefined;
  if (routeList === undefined && variantList === undefined) return null;
  return { ...(routeList && { routes: routeList }), ...(variantList && { variants: variantList }) };
}

function listOf(value: unknown, what: string): unknown[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(list)) throw new Error(`The ${what} are not a list.`);
  return list.length === 0 ? undefined : list;
}
