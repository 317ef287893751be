import { ERROR_CATALOGUE, type ErrorCode } from '../core/error-codes.js';
import { problem, PROBLEM_CONTENT_TYPE } from './problem.js';

export type RedirectFailure = 'not_found' | 'expired' | 'deleted' | 'unavailable';

interface FailureResponse {
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
};

function htmlPage(heading: string, detail: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading} · Linkforge</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1f2933}a{color:#2250c8}</style></head><body><main><h1>${heading}</h1><p>${detail}</p><p><a href="/">Shorten a link</a></p></main></body></html>`;
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

export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
export { PROBLEM_CONTENT_TYPE };
