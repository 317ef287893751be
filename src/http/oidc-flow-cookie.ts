import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignInChecks } from '../core/identity-ports.js';
import { servedOverHttps } from './session-cookie.js';

const COOKIE = 'linkforge_oidc';
const COOKIE_PATH = '/auth/oidc';
/** Time to sign in at the provider, password manager and second factor included. */
export const FLOW_MAX_AGE_SECONDS = 600;

/** What a sign-in in progress keeps in the browser: the provider's checks and the page to return to. */
export interface SignInFlow extends SignInChecks {
  readonly next: string;
}

interface FlowCookieOptions {
  /** A server secret of its own purpose (derived from the token secret). */
  readonly key: Buffer;
  readonly baseUrl: string;
}

/**
 * The PKCE verifier, state and nonce between `/auth/oidc/start` and the callback (ADR 0034):
 * signed with an expiry, HttpOnly, SameSite=Lax (the provider's redirect back is a top-level
 * navigation, which carries it) and scoped to /auth/oidc. Its value is no secret from this browser,
 * only from everyone else; the signature keeps anyone from choosing it.
 */
export class OidcFlowCookie {
  constructor(private readonly options: FlowCookieOptions) {}

  set(request: FastifyRequest, reply: FastifyReply, flow: SignInFlow, now: number): void {
    const expires = Math.floor(now / 1000) + FLOW_MAX_AGE_SECONDS;
    const payload = Buffer.from(JSON.stringify({ ...flow, expires })).toString('base64url');
    reply.setCookie(COOKIE, `${payload}.${this.mac(payload)}`, {
      path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: servedOverHttps(request, this.options.baseUrl), maxAge: FLOW_MAX_AGE_SECONDS,
    });
  }

  /** The flow this browser started, when its cookie is intact and unexpired; the cookie is cleared either way: a flow is used once. */
  take(request: FastifyRequest, reply: FastifyReply, now: number): SignInFlow | undefined {
    const value = request.cookies?.[COOKIE];
    reply.clearCookie(COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax' });
    const [payload = '', mac = ''] = (value ?? '').split('.');
    const expected = Buffer.from(this.mac(payload));
    if (Buffer.byteLength(mac) !== expected.length || !timingSafeEqual(Buffer.from(mac), expected)) return undefined;
    const flow = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SignInFlow & { expires: number };
    if (flow.expires * 1000 <= now) return undefined;
    return { codeVerifier: flow.codeVerifier, state: flow.state, nonce: flow.nonce, next: flow.next };
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.options.key).update(payload).digest('base64url');
  }
}
