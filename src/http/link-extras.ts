import type { IncomingMessage } from 'node:http';
import type { LinkExtras } from '../core/link-options.js';
import type { RedirectTarget } from '../core/link.js';
import { decideRedirect, type RedirectDecision } from '../core/redirect-decision.js';
import type { FailureResponse } from './redirect-pages.js';

/** A target whose link has options, a password or a click limit (ADR 0031). */
export type ExtrasTarget = RedirectTarget & { readonly extras: LinkExtras };

/** One visit to a link with extras, as the steps see and shape it. */
export interface ExtrasVisit {
  readonly req: IncomingMessage;
  readonly target: ExtrasTarget;
  readonly now: number;
  /** The plain decision (redirect, gone, disabled), judged once before any step. */
  readonly decision: RedirectDecision;
  /** What the visitor sent from the password or confirmation page (a POST to the code); absent on GET and HEAD. */
  readonly submitted?: { readonly password?: string; readonly confirmed?: boolean };
  /** The destination so far: the link's URL, until a route or variant chooses another. */
  url: string;
  /** What a route or variant served, as core/served-code.ts numbers it; absent when neither chose the URL. */
  served?: number;
  /** Headers the final answer carries (an unlock cookie), whatever it is. */
  readonly headers: Record<string, string>;
}

/** How a visit to a link with extras is answered. */
export type ExtrasOutcome =
  /** To `url`; `counted` when it is a click (a visit is recorded). */
  | { readonly kind: 'redirect'; readonly url: string; readonly status: number; readonly counted: boolean }
  /** A page of its own (password, confirmation, preview, used up), in HTML or JSON as the request prefers. */
  /** `recorded`: a visit is recorded (the preview page: classified as a `preview` by its User-Agent, as for a plain link). */
  | { readonly kind: 'page'; readonly page: FailureResponse; readonly recorded?: boolean }
  /** As a plain link would be answered (gone, disabled): the responder's own failure pages. */
  | { readonly kind: 'plain'; readonly decision: NotRedirected };

/** A decision other than a redirect: gone, disabled or not found. */
export type NotRedirected = Exclude<RedirectDecision, { readonly kind: 'redirect' }>;

/**
 * One step of the answer: an outcome ends the visit; undefined hands it to the next step. A step
 * may change `visit.url` or add to `visit.headers` and go on. Steps run in the order given to
 * `answerExtras` (src/app.ts), which docs/architecture.md explains.
 */
export type ExtrasStep = (visit: ExtrasVisit) => ExtrasOutcome | undefined | Promise<ExtrasOutcome | undefined>;

export function extrasVisitOf(req: IncomingMessage, target: ExtrasTarget, now: number, submitted?: ExtrasVisit['submitted']): ExtrasVisit {
  const decision = decideRedirect(target, now);
  return { req, target, now, decision, submitted, url: target.url, headers: {} };
}

/**
 * Runs the steps in order, synchronously while they answer synchronously. Without any step that
 * answers, a live link redirects to the chosen URL (303 after a POST, since the form's answer is a
 * page to GET), and any other link is answered as a plain one would be.
 */
export function answerExtras(steps: readonly ExtrasStep[], visit: ExtrasVisit, from = 0): ExtrasOutcome | Promise<ExtrasOutcome> {
  for (let index = from; index < steps.length; index += 1) {
    const result = steps[index]!(visit);
    if (result instanceof Promise) return result.then((outcome) => outcome ?? answerExtras(steps, visit, index + 1));
    if (result !== undefined) return result;
  }
  return finalOutcome(visit);
}

function finalOutcome(visit: ExtrasVisit): ExtrasOutcome {
  const { decision } = visit;
  if (decision.kind !== 'redirect') return { kind: 'plain', decision };
  const status = visit.req.method === 'POST' ? 303 : decision.status === undefined ? 302 : temporary(decision.status);
  return { kind: 'redirect', url: visit.url, status, counted: true };
}

/** A link with extras may answer differently on the next visit, so no browser may keep a permanent redirect of it. */
function temporary(status: number): number {
  if (status === 301) return 302;
  return status === 308 ? 307 : status;
}
