import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Composition } from '../../src/deps.js';

/** What a browser asks for. */
export const HTML_ACCEPT = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** GET (or HEAD) of a short code as a browser asks for it. */
export function open(app: FastifyInstance, code: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET'): Promise<LightMyRequestResponse> {
  return app.inject({ method, url: `/${code}`, headers: { ...HTML_ACCEPT, ...headers } });
}

/** The page's form, posted as a browser posts it. */
export function submit(app: FastifyInstance, code: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: `/${code}`, headers: { ...HTML_ACCEPT, ...FORM, ...headers }, payload: new URLSearchParams(form).toString() });
}

/** The `name=value` part of the answer's Set-Cookie, to send back as a Cookie header. */
export function cookieOf(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  assert.equal(typeof header, 'string', 'one Set-Cookie');
  return (header as string).split(';')[0]!;
}

/** Neither the status line's headers nor the body name the destination. */
export function assertNoLeak(response: LightMyRequestResponse, destination: string): void {
  assert.equal(response.headers.location, undefined);
  assert.ok(!response.body.includes(destination), 'the body does not name the destination');
  assert.ok(!JSON.stringify(response.headers).includes(destination), 'no header names the destination');
}

/** The page's security headers. */
export function assertGatePageHeaders(response: LightMyRequestResponse): void {
  assert.equal(response.headers['content-security-policy'], "default-src 'none'; style-src 'self'; img-src data:; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'");
  assert.equal(response.headers['cache-control'], 'no-store');
  assert.equal(response.headers['x-robots-tag'], 'noindex');
}

/** The link's counted redirects, once the visit buffer is flushed. */
export async function flushedRedirectCount(deps: Composition, id: number): Promise<number> {
  await (deps.analytics ?? assert.fail('analytics are on by default')).flusher.flushNow();
  const row = await deps.database.db.selectFrom('links').select('redirect_count').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.redirect_count);
}
