import type { IncomingMessage } from 'node:http';
import type { ErrorCode } from '../core/error-codes.js';
import { prefersHtml } from './accept.js';
import { problem } from './problem.js';
import type { FailureResponse } from './redirect-pages.js';

/**
 * The pages of a link that asks something of its visitor before the redirect (ADR 0031): its
 * password, or a confirmation. No script, no inline style, and a policy stricter than the UI's:
 * the page loads one stylesheet and may post only to this origin. They never carry the destination.
 */
// Browsers hold a form's redirects to form-action too: with only 'self', the 303 to the destination
// (any http or https URL) would be refused after the right password, so the policy names the schemes.
export const GATE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; style-src 'self'; img-src data:; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'",
  'x-robots-tag': 'noindex',
};

export type GatePage = 'password' | 'password_wrong' | 'password_limited' | 'confirm';

const TEXTS: Record<GatePage, { code: ErrorCode; heading: string; detail: string; error?: string }> = {
  password: { code: 'link_password_required', heading: 'This link is password protected', detail: 'Enter the password you were given to continue.' },
  password_wrong: {
    code: 'link_password_incorrect', heading: 'This link is password protected', detail: 'Enter the password you were given to continue.',
    error: 'That is not the password. Check it with whoever sent you the link.',
  },
  password_limited: {
    code: 'rate_limit_exceeded', heading: 'Too many wrong passwords', detail: 'Too many wrong passwords were tried for this link from your address.',
    error: 'Wait a minute, then try again.',
  },
  confirm: { code: 'link_confirmation_required', heading: 'Continue to the link?', detail: 'The link takes you to its destination once you continue.' },
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function form(page: GatePage, code: string): string {
  const action = `/${escapeHtml(code)}`;
  if (page === 'confirm') {
    return `<form method="post" action="${action}"><input type="hidden" name="confirm" value="1"><button type="submit">Continue</button></form>`;
  }
  const error = TEXTS[page].error;
  const invalid = error ? ' aria-invalid="true" aria-describedby="password-error"' : '';
  const message = error ? `<p class="form-error" id="password-error" role="alert">${error}</p>` : '';
  return `<form method="post" action="${action}"><label for="password">Password</label>`
    + `<input id="password" name="password" type="password" autocomplete="off" required autofocus${invalid}>${message}`
    + '<button type="submit">Open the link</button></form>';
}

function html(page: GatePage, code: string, stylesheet: string | undefined): Buffer {
  const { heading, detail } = TEXTS[page];
  const style = stylesheet ? `<link rel="stylesheet" href="${escapeHtml(stylesheet)}">` : '';
  return Buffer.from('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
    + `<meta name="color-scheme" content="light dark"><meta name="robots" content="noindex"><title>${heading} · Linkforge</title><link rel="icon" href="data:,">${style}</head>`
    + `<body class="recipient"><main><div class="card"><p class="brand">Linkforge</p><h1>${heading}</h1><p>${detail}</p>${form(page, code)}</div></main></body></html>`);
}

/**
 * The page for this request. Asked with GET or HEAD, the HTML page is the link's answer (200: a
 * browser shows it, and link checkers do not report the link broken); a JSON client gets the
 * problem with its own status, and a wrong password or too many of them answer their status in both.
 */
export function gatePage(page: GatePage, code: string, req: IncomingMessage, stylesheet: string | undefined): FailureResponse {
  const body = problem(TEXTS[page].code, undefined, page === 'password' ? { reason: 'password_required' } : page === 'confirm' ? { reason: 'confirmation_required' } : {});
  const asked = page === 'password' || page === 'confirm';
  const status = asked && prefersHtml(req.headers.accept) ? 200 : body.status;
  return { status, json: Buffer.from(JSON.stringify(body)), html: html(page, code, stylesheet) };
}
