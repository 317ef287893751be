import { Type } from '@sinclair/typebox';
import { MAX_DESTINATIONS } from '../../core/served-code.js';
import type { LinkStats } from '../../links/get-link-stats.js';

const Count = Type.Integer({ minimum: 0 });

/** `destinations` of a link's stats (ADR 0031): the countries' shape, by the route or variant that served the clicks. */
export const DestinationsJson = Type.Array(Type.Object({
  served: Type.String({ pattern: '^(route|variant):[0-9]+$', description: 'The route (`route:0` is the first) or variant (`variant:1` the second) that served the clicks.' }),
  url: Type.Union([Type.String(), Type.Null()], { description: 'Its URL in the link\'s current routes or variants; null when the link no longer has it.' }),
  people: Count, bots: Count, previews: Count, total: Count,
}), {
  maxItems: MAX_DESTINATIONS,
  description: 'Clicks by the route or variant that chose their destination, most first, over the whole UTC days the range touches. Clicks sent to the link\'s own URL (a plain link, or no route matched and no variants) are not listed. Empty for a link without routes or variants.',
});

export function destinationsToJson(destinations: LinkStats['destinations']) {
  return destinations.map(({ served, url, clicks }) => ({ served, url, people: clicks.human, bots: clicks.bot, previews: clicks.preview, total: clicks.total }));
}
