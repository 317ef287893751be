import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AccountServices } from '../accounts/account-services.js';
import { API_KEY_PREFIX, authenticateApiKey, authenticateUserToken } from '../accounts/authenticate.js';
import type { ApiKeyScope } from '../core/api-key-scopes.js';
import { LinkforgeError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import { clearSessionCookie, csrfHeaderOf, isWrite, SESSION_COOKIE, sessionCookieOf } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser, requireUserOrApiKey and requireAdmin. */
    principal?: Principal;
    /** The session token when the request was authenticated by the session cookie rather than a header. */
    sessionCookieToken?: string;
  }
  interface FastifyContextConfig {
    /** The scope an API key needs on this route (ADR 0032); every route behind requireUserOrApiKey declares one. */
    apiKeyScope?: ApiKeyScope;
  }
}

const BEARER = /^Bearer +(\S+) *$/i;

/** The OpenAPI security schemes: `Authorization: Bearer …`, or the web UI's session cookie. */
export const SECURITY_SCHEMES = {
  jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token from /api/auth/register or /api/auth/login.' },
  sessionCookie: {
    type: 'apiKey', in: 'cookie', name: SESSION_COOKIE,
    description: 'The same token, as sign-in sets it in an HttpOnly cookie for browsers. Used only when no Authorization header is sent; a write (POST, PATCH, DELETE) must then also send `X-CSRF-Token` with the `csrfToken` sign-in answered, or it is refused with 403 `csrf_token_invalid`.',
  },
  apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'lfk_…', description: 'A workspace API key (`Authorization: Bearer lfk_…`); it acts only inside its own workspace.' },
} as const;

/** The OpenAPI `security` of the routes behind each guard; `[]` marks a route open to anyone. */
type SecurityRequirements = ReadonlyArray<Readonly<Record<string, readonly string[]>>>;
export const JWT_SECURITY: SecurityRequirements = [{ jwt: [] }, { sessionCookie: [] }];
export const JWT_OR_API_KEY_SECURITY: SecurityRequirements = [{ jwt: [] }, { sessionCookie: [] }, { apiKey: [] }];
export const NO_SECURITY: SecurityRequirements = [];

/**
 * Credentials come from the Authorization header, or, without one, from the session cookie: never
 * from a URL, where a token ends up in logs and Referer headers.
 */
function bearerOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const token = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
  if (token === undefined) throw new LinkforgeError('authentication_required', 'Send `Authorization: Bearer <token>`, or sign in for a session cookie.');
  return token;
}

/** The cookie's session token; a write must echo the CSRF token derived from it (ADR 0024). */
function sessionTokenOf(accounts: AccountServices, request: FastifyRequest, token: string): string {
  if (isWrite(request) && !accounts.tokens.isCsrfTokenFor(token, csrfHeaderOf(request))) throw new LinkforgeError('csrf_token_invalid');
  request.sessionCookieToken = token;
  return token;
}

async function authenticate(accounts: AccountServices, request: FastifyRequest, reply: FastifyReply, allowApiKey: boolean): Promise<Principal> {
  const cookie = request.headers.authorization === undefined ? sessionCookieOf(request) : undefined;
  try {
    if (cookie !== undefined) return await authenticateUserToken(accounts, sessionTokenOf(accounts, request, cookie));
    const token = bearerOf(request);
    if (token.startsWith(API_KEY_PREFIX)) {
      if (!allowApiKey) throw new LinkforgeError('authentication_required', 'API keys are not accepted here; sign in and use the session token.');
      return await authenticateApiKey(accounts, token);
    }
    return await authenticateUserToken(accounts, token);
  } catch (error) {
    if (error instanceof LinkforgeError && error.status === 401) {
      reply.header('www-authenticate', 'Bearer');
      // A cookie that no longer authenticates (signed out, expired) is dropped, so the browser stops sending it.
      if (cookie !== undefined) clearSessionCookie(reply);
    }
    throw error;
  }
}

/** preHandler: a signed-in user (JWT) only. */
export function requireUser(accounts: AccountServices): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    request.principal = await authenticate(accounts, request, reply, false);
  };
}

/**
 * preHandler: a signed-in user (JWT) or an API key (`lfk_…`) confined to its workspace and holding
 * the scope the route declares (403 `insufficient_scope` before the route reads its body).
 */
export function requireUserOrApiKey(accounts: AccountServices): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    const principal = await authenticate(accounts, request, reply, true);
    const scope = request.routeOptions.config.apiKeyScope;
    if (scope === undefined) throw new Error(`Route ${request.routeOptions.url ?? request.url} accepts API keys but declares no apiKeyScope.`);
    if (principal.apiKeyScopes !== null && !principal.apiKeyScopes.includes(scope)) {
      // RFC 6750 §3.1: the challenge names the scope the token lacks.
      reply.header('www-authenticate', `Bearer error="insufficient_scope", scope="${scope}"`);
      throw new LinkforgeError('insufficient_scope', `This API key lacks the "${scope}" scope this route needs.`, { requiredScope: scope });
    }
    request.principal = principal;
  };
}

/** preHandler: a signed-in site admin (JWT only); 401 without a valid token, 403 for anyone else. */
export function requireAdmin(accounts: AccountServices): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    const principal = await authenticate(accounts, request, reply, false);
    if (principal.role !== 'admin') throw new LinkforgeError('permission_denied', 'This needs the admin role.');
    request.principal = principal;
  };
}

/** The three guards, built once on the accounts' services and handed to the routes that need them. */
export interface AuthGuards {
  readonly requireUser: preHandlerAsyncHookHandler;
  readonly requireUserOrApiKey: preHandlerAsyncHookHandler;
  readonly requireAdmin: preHandlerAsyncHookHandler;
}

export function authGuards(accounts: AccountServices): AuthGuards {
  return { requireUser: requireUser(accounts), requireUserOrApiKey: requireUserOrApiKey(accounts), requireAdmin: requireAdmin(accounts) };
}

/**
 * Refuses, at start-up, a route that accepts API keys without declaring the scope they need, so a
 * new route can never be open to every key by omission (ADR 0032).
 */
export function requireDeclaredScopes(app: FastifyInstance, guards: AuthGuards): void {
  app.addHook('onRoute', (route) => {
    const preHandlers = [route.preHandler ?? []].flat();
    if (preHandlers.includes(guards.requireUserOrApiKey) && route.config?.apiKeyScope === undefined) {
      throw new Error(`${route.method} ${route.url} accepts API keys but declares no config.apiKeyScope.`);
    }
  });
}

/** The principal a guard set; calling it on an unguarded route is a programming error. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`Route ${request.routeOptions.url ?? request.url} reads the principal but has no auth preHandler.`);
  return request.principal;
}
