import { ERROR_CATALOGUE, type ErrorCode } from '../core/error-codes.js';
import { problem, PROBLEM_CONTENT_TYPE } from './problem.js';
import { HTML_SECURITY_HEADERS } from './security-headers.js';

export type RedirectFailure = 'not_found' | 'expired' | 'deleted' | 'unavailable' | 'rate_limited';

export interface FailureResponse {
  readonly status: number;
  readonly json: Buffer;
  readonly html: Buffer;
}

/** Status, title and code come from the catalogue; only the page heading and a redirect-specific detail are here. */
const PAGES: Record<RedirectFailure, { code: ErrorCode; heading: string; detail?: string }> = {
  not_found: { code: 'link_not_found', heading: 'This link does not exist', detail: 'No link exists for this short code.' },
  expired: { code: 'link_expired', heading: 'This link has expired' },
  deleted: { code: 'link_deleted', heading: 'This link was deleted' },
  unavailable: { code: 'store_unavailable', heading: 'Try again in a moment', detail: 'The link cannot be looked up right now; try again shortly.' },
  rate_limited: { code: 'rate_limit_exceeded', heading: 'Too many requests', detail: 'Too many links were followed from your address in the last minute; try again shortly.' },
};

// No inline style or script: the page obeys the same Content-Security-Policy as the UI, whose stylesheet it
// cannot rely on (its name is hashed), so it is plain HTML. Both links lead into the web UI.
function htmlPage(heading: string, detail: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading} · Linkforge</title><link rel="icon" href="data:,"></head><body><main><h1>${heading}</h1><p>${detail}</p><nav aria-label="Linkforge"><ul><li><a href="/">Shorten a link</a></li><li><a href="/app/dashboard">Your links</a></li></ul></nav></main></body></html>`;
}

/** Bodies are built once: the redirect path only picks one. They contain no request data. */
export const FAILURE_RESPONSES: Record<RedirectFailure, FailureResponse> = Object.fromEntries(
  Object.entries(PAGES).map(([kind, page]) => {
    const body = problem(page.code, page.detail, kind === 'expired' || kind === 'deleted' ? { reason: kind } : {});
    return [kind, {
      status: ERROR_CATALOGUE[page.code].status,
      json: Buffer.from(JSON.stringify(body)),
      html: Buffer.from(htmlPage(page.heading, body.detail)),
    }];
  }),
) as Record<RedirectFailure, FailureResponse>;

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);

/**
 * A link the service's operator disabled: 410 with the operator's reason, on the page and in the
 * problem (`disabledReason`). Built per answer, since the reason is the link's own; only disabled
 * links reach it, so a live link's answer costs nothing more.
 */
export function disabledLinkResponse(reason: string): FailureResponse {
  const body = problem('link_disabled', undefined, { reason: 'disabled', disabledReason: reason });
  const html = htmlPage('This link was disabled', `${escapeHtml(body.detail)}</p><p>Reason given: ${escapeHtml(reason)}`);
  return { status: body.status, json: Buffer.from(JSON.stringify(body)), html: Buffer.from(html) };
}

export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
/** Sent with every failure page in HTML (the JSON bodies need only nosniff). */
export const FAILURE_PAGE_HEADERS = HTML_SECURITY_HEADERS;
export { PROBLEM_CONTENT_TYPE };
