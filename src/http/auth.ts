import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AccountServices } from '../accounts/account-services.js';
import { API_KEY_PREFIX, authenticateApiKey, authenticateUserToken } from '../accounts/authenticate.js';
import { LinkforgeError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser, requireUserOrApiKey and requireAdmin. */
    principal?: Principal;
  }
}

const BEARER = /^Bearer +(\S+) *$/i;

/** The OpenAPI security schemes: both credentials travel as `Authorization: Bearer …`. */
export const SECURITY_SCHEMES = {
  jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token from /api/auth/register or /api/auth/login.' },
  apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'lfk_…', description: 'A workspace API key (`Authorization: Bearer lfk_…`); it acts only inside its own workspace.' },
} as const;

/** The OpenAPI `security` of the routes behind each guard; `[]` marks a route open to anyone. */
type SecurityRequirements = ReadonlyArray<Readonly<Record<string, readonly string[]>>>;
export const JWT_SECURITY: SecurityRequirements = [{ jwt: [] }];
export const JWT_OR_API_KEY_SECURITY: SecurityRequirements = [{ jwt: [] }, { apiKey: [] }];
export const NO_SECURITY: SecurityRequirements = [];

/** Credentials come only from the Authorization header: a token in a URL ends up in logs and Referer headers. */
function bearerOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const token = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
  if (token === undefined) throw new LinkforgeError('authentication_required', 'Send `Authorization: Bearer <token>`.');
  return token;
}

async function authenticate(accounts: AccountServices, request: FastifyRequest, reply: FastifyReply, allowApiKey: boolean): Promise<Principal> {
  try {
    const token = bearerOf(request);
    if (token.startsWith(API_KEY_PREFIX)) {
      if (!allowApiKey) throw new LinkforgeError('authentication_required', 'API keys are not accepted here; sign in and use the session token.');
      return await authenticateApiKey(accounts, token);
    }
    return await authenticateUserToken(accounts, token);
  } catch (error) {
    if (error instanceof LinkforgeError && error.status === 401) reply.header('www-authenticate', 'Bearer');
    throw error;
  }
}

/** preHandler: a signed-in user (JWT) only. */
export function requireUser(accounts: AccountServices): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    request.principal = await authenticate(accounts, request, reply, false);
  };
}

/** preHandler: a signed-in user (JWT) or an API key (`lfk_…`) confined to its workspace. */
export function requireUserOrApiKey(accounts: AccountServices): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    request.principal = await authenticate(accounts, request, reply, true);
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

/** The principal a guard set; calling it on an unguarded route is a programming error. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`Route ${request.routeOptions.url ?? request.url} reads the principal but has no auth preHandler.`);
  return request.principal;
}
