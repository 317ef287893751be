import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AccountServices } from '../../accounts/account-services.js';
import type { User } from '../../core/account-ports.js';
import { endSessions } from '../../accounts/end-sessions.js';
import { getProfile } from '../../accounts/get-profile.js';
import { loginUser } from '../../accounts/login-user.js';
import { registerUser } from '../../accounts/register-user.js';
import { JWT_SECURITY, NO_SECURITY, principalOf } from '../auth.js';
import { rateLimitPerMinute } from '../rate-limit.js';
import { refuseUnless, type RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';
import { clearSessionCookie, setSessionCookie } from '../session-cookie.js';

const Credentials = Type.Object({
  email: Type.String({ maxLength: 320, description: 'Compared case-insensitively.' }),
  // Generous on purpose: the 72-byte rule is checked in bytes, with its own message.
  password: Type.String({ maxLength: 1024, description: '8 to 72 bytes in UTF-8, no NUL character.' }),
}, { additionalProperties: false });

const UserJson = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
  createdAt: Type.String({ format: 'date-time' }),
});

const CSRF_USE = 'For browsers using the session cookie: send it as `X-CSRF-Token` on every POST, PATCH and DELETE.';
const CsrfToken = Type.String({ description: CSRF_USE });

const SignedInJson = Type.Object({
  token: Type.String({ description: 'JWT (HS256); send as `Authorization: Bearer <token>`. The answer also sets it as the HttpOnly session cookie.' }),
  csrfToken: CsrfToken,
  user: UserJson,
});

const ProfileJson = Type.Object({
  user: UserJson,
  csrfToken: Type.Optional(Type.String({ description: `Present when the request was authenticated by the session cookie. ${CSRF_USE}` })),
  workspaces: Type.Array(Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    role: Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]),
    isPersonal: Type.Boolean(),
  })),
});

const userToJson = (user: User) => ({ id: user.id, email: user.email, role: user.role, createdAt: new Date(user.createdAt).toISOString() });

export function registerAuthRoutes(app: FastifyInstance, accounts: AccountServices, context: RouteContext): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  const rateLimit = rateLimitPerMinute(context.rateLimit.authPerMinute);
  /** Both credentials at once: the token in the body for scripts, the same token in the cookie for browsers. */
  const signedIn = (request: FastifyRequest, reply: FastifyReply, token: string, user: User) => {
    setSessionCookie(request, reply, token, { baseUrl: context.baseUrl, maxAgeSeconds: accounts.tokens.lifetimeSeconds });
    return { token, csrfToken: accounts.tokens.csrfTokenFor(token), user: userToJson(user) };
  };

  typedApp.post('/api/auth/register', {
    config: { rateLimit, rateLimitPolicy: 'auth' },
    onRequest: refuseUnless(context.instance.passwordLogin, 'password_login_disabled')
      ?? refuseUnless(context.instance.registrationAllowed, 'registration_disabled'),
    schema: {
      operationId: 'register',
      summary: 'Create an account and its personal workspace',
      description: 'Answers 403 `registration_disabled` when the instance is set with DISALLOW_REGISTRATION, and 403 `password_login_disabled` with PASSWORD_LOGIN=false.',
      tags: ['auth'],
      security: NO_SECURITY,
      body: Credentials,
      response: { 201: SignedInJson, ...errorResponses(400, 403, 409, 413, 429, 503) },
    },
  }, async (request, reply) => {
    const { token, user } = await registerUser(accounts, request.body);
    reply.status(201);
    return signedIn(request, reply, token, user);
  });

  typedApp.post('/api/auth/login', {
    config: { rateLimit, rateLimitPolicy: 'auth' },
    onRequest: refuseUnless(context.instance.passwordLogin, 'password_login_disabled'),
    schema: {
      operationId: 'login',
      summary: 'Sign in',
      description: 'An unknown email and a wrong password get the same 401. Answers 403 `password_login_disabled` when the instance is set with PASSWORD_LOGIN=false (it signs in through its OpenID Connect provider only).',
      tags: ['auth'],
      security: NO_SECURITY,
      body: Credentials,
      response: { 200: SignedInJson, ...errorResponses(400, 401, 403, 413, 429, 503) },
    },
  }, async (request, reply) => {
    try {
      const { token, user } = await loginUser(accounts, request.body);
      return signedIn(request, reply, token, user);
    } catch (error) {
      reply.header('www-authenticate', 'Bearer');
      throw error;
    }
  });
  registerSessionRoutes(app, accounts, context);
}

/** The session once signed in: who it is, and signing out. */
function registerSessionRoutes(app: FastifyInstance, accounts: AccountServices, context: RouteContext): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  typedApp.get('/api/auth/me', {
    preHandler: context.guards.requireUser,
    schema: {
      operationId: 'getProfile',
      summary: 'The signed-in user and their workspaces',
      tags: ['auth'],
      security: JWT_SECURITY,
      response: { 200: ProfileJson, ...errorResponses(401, 503) },
    },
  }, async (request) => {
    const { user, workspaces } = await getProfile(accounts, principalOf(request).userId);
    const cookie = request.sessionCookieToken;
    return {
      user: userToJson(user),
      ...(cookie !== undefined && { csrfToken: accounts.tokens.csrfTokenFor(cookie) }),
      workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, role: w.role, isPersonal: w.isPersonal })),
    };
  });

  typedApp.post('/api/auth/logout', {
    preHandler: context.guards.requireUser,
    schema: {
      operationId: 'logout',
      summary: 'Sign out everywhere',
      description: 'Ends every session of the signed-in user at once: the session cookie and every token from register or login, in any browser or script, answer 401 from now on. API keys keep working. Clears the session cookie.',
      tags: ['auth'],
      security: JWT_SECURITY,
      response: { 204: Type.Null({ description: 'Signed out.' }), ...errorResponses(401, 403, 503) },
    },
  }, async (request, reply) => {
    await endSessions(accounts, principalOf(request).userId);
    clearSessionCookie(reply);
    return reply.status(204).send(null);
  });
}
