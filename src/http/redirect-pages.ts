import { problem, PROBLEM_CONTENT_TYPE } from './problem.js';

export type RedirectFailure = 'not_found' | 'expired' | 'deleted' | 'unavailable';

interface FailureResponse {
  readonly status: number;
  readonly json: Buffer;
  readonly html: Buffer;
}

const TEXT: Record<RedirectFailure, { status: number; code: string; title: string; detail: string; heading: string }> = {
  not_found: { status: 404, code: 'link_not_found', title: 'Link not found', detail: 'No link exists for this short code.', heading: 'This link does not exist' },
  expired: { status: 410, code: 'link_expired', title: 'Link expired', detail: 'This short link has expired.', heading: 'This link has expired' },
  deleted: { status: 410, code: 'link_deleted', title: 'Link deleted', detail: 'This short link was deleted by its owner.', heading: 'This link was deleted' },
  unavailable: { status: 503, code: 'store_unavailable', title: 'Service unavailable', detail: 'The link cannot be looked up right now; try again shortly.', heading: 'Try again in a moment' },
};

function htmlPage(heading: string, detail: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading} · Linkforge</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1f2933}a{color:#2250c8}</style></head><body><main><h1>${heading}</h1><p>${detail}</p><p><a href="/">Shorten a link</a></p></main></body></html>`;
}

/** Bodies are built once: the redirect path only picks one. They contain no request data. */
export const FAILURE_RESPONSES: Record<RedirectFailure, FailureResponse> = Object.fromEntries(
  Object.entries(TEXT).map(([kind, t]) => [kind, {
    status: t.status,
    json: Buffer.from(JSON.stringify(problem(t.status, t.code, t.title, t.detail, kind === 'expired' || kind === 'deleted' ? { reason: kind } : {}))),
    html: Buffer.from(htmlPage(t.heading, t.detail)),
  }]),
) as Record<RedirectFailure, FailureResponse>;

export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
export { PROBLEM_CONTENT_TYPE };
