import type { ClickLimitStore } from '../core/click-limit-ports.js';
import { visitorClassOf } from '../visits/visit-classifier.js';
import { problem } from './problem.js';
import { htmlPage, type FailureResponse } from './redirect-pages.js';
import { fallbackOf } from './fallback-step.js';
import type { ExtrasOutcome, ExtrasStep, ExtrasVisit } from './link-extras.js';

/** The answer of a used-up link without a fallback URL: 410 `link_limit_reached`, built once. */
export function limitReachedResponse(stylesheet?: string): FailureResponse {
  const body = problem('link_limit_reached', undefined, { reason: 'limit_reached' });
  const html = htmlPage(body.status, 'This link has been used up', body.detail, 'It was made for a limited number of visits. Ask whoever sent it for a new one.', stylesheet);
  return { status: body.status, json: Buffer.from(JSON.stringify(body)), html: Buffer.from(html) };
}

/**
 * The last step, the only one that writes (ADR 0031): a person following a live limited link takes
 * one click, atomically in the database, and is redirected; when none is left, the fallback URL or
 * the used-up page answers. A HEAD request, a crawler or a link-preview agent (the visit
 * classifier's `bot` and `preview`, which include the mail scanners isbot knows) takes none: it is
 * redirected while clicks are left, and otherwise answered as a person would be, so that a
 * borrowed bot User-Agent never reaches the destination of a used-up link.
 */
export function clickLimitStep(store: ClickLimitStore, limitReached: FailureResponse): ExtrasStep {
  const usedUp = (visit: ExtrasVisit): ExtrasOutcome => fallbackOf(visit) ?? { kind: 'page', page: limitReached };
  return (visit) => {
    if (visit.target.extras.maxClicks === undefined || visit.decision.kind !== 'redirect') return undefined;
    const linkId = visit.target.linkId;
    if (visit.req.method === 'HEAD' || visitorClassOf(visit.req.headers['user-agent']) !== 'human') {
      return store.findClicksLeft(linkId).then((left) => (left !== undefined && left > 0 ? undefined : usedUp(visit)));
    }
    return store.consumeClick(linkId).then((left) => (left === undefined ? usedUp(visit) : undefined));
  };
}
