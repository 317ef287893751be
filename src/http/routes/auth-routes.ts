import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AccountServices } from '../../accounts/account-services.js';
import type { User } from '../../core/account-ports.js';
import { getProfile } from '../../accounts/get-profile.js';
import { loginUser } from '../../accounts/login-user.js';
import { registerUser } from '../../accounts/register-user.js';
import { JWT_SECURITY, NO_SECURITY, principalOf } from '../auth.js';
import { rateLimitPerMinute } from '../rate-limit.js';
import { refuseUnless, type RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';

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

const SignedInJson = Type.Object({
  token: Type.String({ description: 'JWT (HS256); send as `Authorization: Bearer <token>`.' }),
  user: UserJson,
});

const ProfileJson = Type.Object({
  user: UserJson,
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

  typedApp.post('/api/auth/register', {
    config: { rateLimit },
    onRequest: refuseUnless(context.instance.registrationAllowed, 'registration_disabled'),
    schema: {
      operationId: 'register',
      summary: 'Create an account and its personal workspace',
      description: 'Answers 403 `registration_disabled` when the instance is set with DISALLOW_REGISTRATION.',
      tags: ['auth'],
      security: NO_SECURITY,
      body: Credentials,
      response: { 201: SignedInJson, ...errorResponses(400, 403, 409, 413, 429, 503) },
    },
  }, async (request, reply) => {
    const { token, user } = await registerUser(accounts, request.body);
    reply.status(201);
    return { token, user: userToJson(user) };
  });

  typedApp.post('/api/auth/login', {
    config: { rateLimit },
    schema: {
      operationId: 'login',
      summary: 'Sign in',
      description: 'An unknown email and a wrong password get the same 401.',
      tags: ['auth'],
      security: NO_SECURITY,
      body: Credentials,
      response: { 200: SignedInJson, ...errorResponses(400, 401, 413, 429, 503) },
    },
  }, async (request, reply) => {
    try {
      const { token, user } = await loginUser(accounts, request.body);
      return { token, user: userToJson(user) };
    } catch (error) {
      reply.header('www-authenticate', 'Bearer');
      throw error;
    }
  });

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
    return {
      user: userToJson(user),
      workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, role: w.role, isPersonal: w.isPersonal })),
    };
  });
}
