import type { ServerResponse } from 'node:http';
import { ERROR_CATALOGUE, type ErrorCode } from '../core/error-codes.js';
import { problem, PROBLEM_CONTENT_TYPE } from './problem.js';
import { HTML_SECURITY_HEADERS } from './security-headers.js';

export type RedirectFailure = 'not_found' | 'expired' | 'deleted' | 'unavailable' | 'rate_limited';

export interface FailureResponse {
  readonly status: number;
  readonly json: Buffer;
  readonly html: Buffer;
  /** Set when the operator sends these visitors elsewhere (NOT_FOUND_REDIRECT_URL, EXPIRED_REDIRECT_URL): the answer is a 302 to it. */
  readonly location?: string;
  /** Answered in HTML unless the request names JSON: link-preview agents send `Accept: *\/*` or none (http/preview-page.ts). */
  readonly htmlByDefault?: true;
  /** Headers that replace the defaults of each variant: a page's own policy, a JSON body that is no problem detail. */
  readonly headers?: { readonly html?: Readonly<Record<string, string>>; readonly json?: Readonly<Record<string, string>> };
}

export interface FailurePageOptions {
  /** The stylesheet the HTML pages link to (`/page.css?v=…`); without it they are plain HTML. */
  readonly stylesheet?: string;
  /** Where unknown codes send the visitor instead of the 404 page. */
  readonly notFoundRedirectUrl?: string;
  /** Where expired and deleted links send the visitor instead of the 410 page. */
  readonly expiredRedirectUrl?: string;
}

/** Status, title and code come from the catalogue; the heading, a redirect-specific detail and what to do next are here. */
const PAGES: Record<RedirectFailure, { code: ErrorCode; heading: string; detail?: string; next: string }> = {
  not_found: {
    code: 'link_not_found', heading: 'This link does not exist', detail: 'No link exists for this short code.',
    next: 'Check the address with whoever sent it: a short link stops working when a letter is missing or changed (capitals count).',
  },
  expired: { code: 'link_expired', heading: 'This link has expired', next: 'It was made to work for a limited time only. Ask whoever sent it for a new one.' },
  deleted: { code: 'link_deleted', heading: 'This link was deleted', next: 'It no longer leads anywhere. Ask whoever sent it for a new one.' },
  unavailable: {
    code: 'store_unavailable', heading: 'Try again in a moment', detail: 'The link cannot be looked up right now; try again shortly.',
    next: 'Nothing is wrong with the link itself. Reload this page in a few seconds.',
  },
  rate_limited: {
    code: 'rate_limit_exceeded', heading: 'Too many requests', detail: 'Too many links were followed from your address in the last minute; try again shortly.',
    next: 'Wait a minute, then reload this page.',
  },
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// No inline style or script: the page obeys the same Content-Security-Policy as the UI. Its one
// stylesheet has a fixed path (`/page.css`), unlike the UI's hashed ones. Its only link is to the
// home page, which works signed out; the UI's signed-in pages would not help a link's recipient.
export function htmlPage(status: number, heading: string, detail: string, next: string, stylesheet: string | undefined): string {
  const style = stylesheet ? `<link rel="stylesheet" href="${escapeHtml(stylesheet)}">` : '';
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
    + `<meta name="color-scheme" content="light dark"><meta name="robots" content="noindex"><title>${heading} · Linkforge</title><link rel="icon" href="data:,">${style}</head>`
    + `<body class="recipient"><main><div class="card"><a class="brand" href="/">Linkforge</a>`
    + `<p class="status">Error ${status}</p><h1>${heading}</h1><p>${detail}</p><p class="next muted">${next}</p>`
    + '<p><a href="/">Shorten a link</a></p></div></main></body></html>';
}

/**
 * The answers for every failure, built once at start-up (app.ts): the redirect path only picks one.
 * They contain no request data.
 */
export function failureResponses(options: FailurePageOptions = {}): Record<RedirectFailure, FailureResponse> {
  const locations: Partial<Record<RedirectFailure, string>> = {
    not_found: options.notFoundRedirectUrl, expired: options.expiredRedirectUrl, deleted: options.expiredRedirectUrl,
  };
  return Object.fromEntries(Object.entries(PAGES).map(([kind, page]) => {
    const body = problem(page.code, page.detail, kind === 'expired' || kind === 'deleted' ? { reason: kind } : {});
    const status = ERROR_CATALOGUE[page.code].status;
    const location = locations[kind as RedirectFailure];
    return [kind, {
      status,
      json: Buffer.from(JSON.stringify(body)),
      html: Buffer.from(htmlPage(status, page.heading, body.detail, page.next, options.stylesheet)),
      ...(location === undefined ? {} : { location }),
    }];
  })) as Record<RedirectFailure, FailureResponse>;
}

/** The answers without a stylesheet or redirect URLs (benches, and tests of the bodies). */
export const FAILURE_RESPONSES = failureResponses();

/**
 * A link the service's operator disabled: 410 with the operator's reason, on the page and in the
 * problem (`disabledReason`). Built per answer, since the reason is the link's own; only disabled
 * links reach it, so a live link's answer costs nothing more.
 */
export function disabledLinkResponses(options: Pick<FailurePageOptions, 'stylesheet'> = {}): (reason: string) => FailureResponse {
  return (reason) => {
    const body = problem('link_disabled', undefined, { reason: 'disabled', disabledReason: reason });
    const detail = `${escapeHtml(body.detail)}</p><p>Reason given: ${escapeHtml(reason)}`;
    const html = htmlPage(body.status, 'This link was disabled', detail, 'The operator of this service disabled it. Ask whoever sent it about it.', options.stylesheet);
    return { status: body.status, json: Buffer.from(JSON.stringify(body)), html: Buffer.from(html) };
  };
}

export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
/** Sent with every failure page in HTML (the JSON bodies need only nosniff). */
export const FAILURE_PAGE_HEADERS = HTML_SECURITY_HEADERS;
export { PROBLEM_CONTENT_TYPE };

/** A failure sent elsewhere (the operator's page, a custom domain's own; ADR 0036): not cached, as the code may yet be created or restored. */
const FAILURE_REDIRECT_STATUS = 302;

/** Answers a `302` to `location`; returns its status. */
export function sendElsewhere(res: ServerResponse, location: string): number {
  res.writeHead(FAILURE_REDIRECT_STATUS, { location, 'cache-control': 'no-store', 'content-length': '0' });
  res.end();
  return FAILURE_REDIRECT_STATUS;
}
