import type { UrlPolicy } from '../core/canonical-url.js';
import { withOption, type LinkOptions } from '../core/link-options.js';
import { parseRoutes, parseVariants } from '../core/routing-rules.js';

/** A link's routes and variants as a request gives them: absent leaves them, `null` or `[]` removes them. */
export interface RoutingInput {
  readonly routes?: unknown;
  readonly variants?: unknown;
}

/**
 * The link's options with the requested routes and variants checked and merged in, every other
 * option kept; undefined when the request names neither (nothing to change).
 */
export function optionsWithRouting(options: LinkOptions | null, input: RoutingInput, policy: UrlPolicy): LinkOptions | null | undefined {
  const routes = parseRoutes(input.routes, policy);
  const variants = parseVariants(input.variants, policy);
  if (routes === undefined && variants === undefined) return undefined;
  let next = options;
  if (routes !== undefined) next = withOption(next, 'routes', routes);
  if (variants !== undefined) next = withOption(next, 'variants', variants);
  return next;
}

/** An imported link's options, its routes and variants held to the API's rules like a create's. */
export function importedOptions(options: LinkOptions | null | undefined, policy: UrlPolicy): LinkOptions | null {
  const routed = optionsWithRouting(options ?? null, { routes: options?.routes, variants: options?.variants }, policy);
  return routed === undefined ? options ?? null : routed;
}
