import type { IncomingMessage } from 'node:http';
import { chosenVariant, drawOfVisitor, hasRouting, matchingRoute, routingNeedsOf, type Destination, type RoutingVisitor } from '../core/link-routing.js';
import { servedCode } from '../core/served-code.js';
import { dayStartOf } from '../core/visit-rollups.js';
import { acceptedLanguages, routeDevicesOf } from '../core/visitor-traits.js';
import { headerPrefix, MAX_USER_AGENT } from '../visits/header-prefix.js';
import type { ExtrasStep, ExtrasVisit } from './link-extras.js';
import { remembered } from './remembered.js';

/** What choosing a route or a variant needs from the running service. */
export interface RoutingDeps {
  /** The country (ISO alpha-2) of the request's client, as TRUST_PROXY says who that is; absent when no lookup is possible. */
  readonly countryOf?: (req: IncomingMessage) => string | undefined;
  /** The address a visitor id is made from (none under a privacy signal or ANALYTICS_PRIVACY=strict). */
  readonly visitorAddress?: (req: IncomingMessage) => string | undefined;
  /** The salt of a UTC day's visitor ids (visits/visitor-salts.ts); absent when analytics are off. */
  readonly saltOf?: (dayStart: number) => Promise<Buffer | undefined>;
  /** A number in [0, 1) for a visitor without an id; Math.random by default. */
  readonly random?: () => number;
}

/**
 * The step that chooses the destination of a link with routes or variants (ADR 0031): the first
 * matching route, else a variant drawn from the visitor id (the same one all day for one address
 * and User-Agent, like unique visitors: ADR 0028) or, without an id, by chance per request. Only a
 * link with routes or variants pays any lookup, and only for the conditions its routes name.
 */
export function routingStep(deps: RoutingDeps): ExtrasStep {
  const random = deps.random ?? Math.random;
  const drawOf = visitorDraws(deps);
  const traits = visitorTraits(deps);
  return (visit) => {
    const options = visit.target.extras.options;
    if (visit.decision.kind !== 'redirect' || !hasRouting(options)) return undefined;
    const routed = matchingRoute(options!.routes, traits(visit.req, options));
    if (routed !== undefined || options!.variants === undefined) return serve(visit, routed);
    const draw = drawOf?.(visit.req, visit.target.linkId, visit.now);
    if (draw instanceof Promise) return draw.then((value) => serve(visit, chosenVariant(options!.variants, value ?? random())));
    return serve(visit, chosenVariant(options!.variants, draw ?? random()));
  };
}

function serve(visit: ExtrasVisit, destination: Destination | undefined): undefined {
  if (destination !== undefined) {
    visit.url = destination.url;
    visit.served = servedCode(destination.served);
  }
  return undefined;
}

/** The most of a header a remembered reading is keyed by (the device parser reads no more), so that 1,000 kept readings stay small. */
const MAX_KEPT_HEADER = 512;

/** What the routes read of a request, each reading kept for the next request that repeats it. */
function visitorTraits(deps: RoutingDeps): (req: IncomingMessage, options: Parameters<typeof routingNeedsOf>[0]) => RoutingVisitor {
  const devicesOf = remembered(1_000, routeDevicesOf);
  const languagesOf = remembered(1_000, acceptedLanguages);
  return (req, options) => {
    const needs = routingNeedsOf(options);
    return {
      country: needs.country ? deps.countryOf?.(req) : undefined,
      devices: needs.device ? devicesOf(headerPrefix(req.headers['user-agent'] ?? '', MAX_KEPT_HEADER)) : [],
      languages: needs.language ? languagesOf(headerPrefix(req.headers['accept-language'] ?? '', MAX_KEPT_HEADER)) : [],
    };
  };
}

type VisitorDraw = (req: IncomingMessage, linkId: number, now: number) => number | undefined | Promise<number | undefined>;

/** The draw of a visitor id, with today's salt kept at hand so that only the first visit of a day waits for it. */
function visitorDraws(deps: RoutingDeps): VisitorDraw | undefined {
  const { visitorAddress, saltOf } = deps;
  if (visitorAddress === undefined || saltOf === undefined) return undefined;
  let today: { day: number; seed: number | undefined } | undefined;
  return (req, linkId, now) => {
    const address = visitorAddress(req);
    if (address === undefined || address === '') return undefined;
    // The User-Agent as the visit buffer keeps it, so that the id is the one the visit is counted under.
    const agent = headerPrefix(req.headers['user-agent'] ?? '', MAX_USER_AGENT);
    const drawWith = (seed: number | undefined) => (seed === undefined ? undefined : drawOfVisitor(seed, address, agent, linkId));
    const day = dayStartOf(now);
    if (today?.day === day && today.seed !== undefined) return drawWith(today.seed);
    return saltOf(day).then((salt) => {
      today = { day, seed: salt?.readUInt32BE(0) };
      return drawWith(today.seed);
    });
  };
}
