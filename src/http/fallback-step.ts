import type { ExtrasOutcome, ExtrasStep, ExtrasVisit } from './link-extras.js';

/**
 * Where a visitor goes when the link cannot send them to its destination, if its owner named a
 * fallback URL: a 302 (303 after a POST from a page of the link). Not counted as a visit, since the
 * link did not serve its destination, and a deleted link's visits would outlive it.
 */
export function fallbackOf(visit: ExtrasVisit): ExtrasOutcome | undefined {
  const url = visit.target.extras.options?.fallbackUrl;
  if (url === undefined) return undefined;
  return { kind: 'redirect', url, status: visit.req.method === 'POST' ? 303 : 302, counted: false };
}

/**
 * The first step: an expired or deleted link goes to its fallback. A link the operator disabled
 * does not: the operator's word wins over the owner's (ADR 0031).
 */
export const fallbackStep: ExtrasStep = (visit) => (visit.decision.kind === 'gone' ? fallbackOf(visit) : undefined);
