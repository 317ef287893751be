import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The browser's session (ADR 0024): the same JWT the API answers, in an HttpOnly cookie that page
 * scripts cannot read, scoped to /api (redirects and pages never carry it), SameSite=Lax, and
 * Secure whenever the site is served over https.
 */
export const SESSION_COOKIE = 'linkforge_session';
/** The header a cookie-authenticated write must carry, holding the CSRF token sign-in answered. */
export const CSRF_HEADER = 'x-csrf-token';
const COOKIE_PATH = '/api';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function registerSessionCookie(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
}

/** A page on another site can make the browser send the cookie, never read an answer: reads need no CSRF token. */
export const isWrite = (request: FastifyRequest) => !SAFE_METHODS.has(request.method);

export const sessionCookieOf = (request: FastifyRequest): string | undefined => request.cookies?.[SESSION_COOKIE] || undefined;

export function csrfHeaderOf(request: FastifyRequest): string {
  const value = request.headers[CSRF_HEADER];
  return typeof value === 'string' ? value : '';
}

/** https as the browser saw it: the request's protocol (X-Forwarded-Proto behind TRUST_PROXY) or the public base URL. */
export const servedOverHttps = (request: FastifyRequest, baseUrl: string) => request.protocol === 'https' || baseUrl.startsWith('https:');

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, options: { baseUrl: string; maxAgeSeconds: number }): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: servedOverHttps(request, options.baseUrl), maxAge: options.maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax' });
}
