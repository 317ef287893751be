import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AccountServices } from '../../accounts/account-services.js';
import { addMember, listMembers } from '../../accounts/add-member.js';
import type { ApiKey, Member, Membership } from '../../core/account-ports.js';
import { createApiKey } from '../../accounts/create-api-key.js';
import { createWorkspace, listWorkspaces } from '../../accounts/create-workspace.js';
import { listApiKeys } from '../../accounts/list-api-keys.js';
import { removeMember } from '../../accounts/remove-member.js';
import { revokeApiKey } from '../../accounts/revoke-api-key.js';
import { API_KEY_SCOPES } from '../../core/api-key-scopes.js';
import type { WorkspaceRole } from '../../core/principal.js';
import { JWT_OR_API_KEY_SECURITY, principalOf } from '../auth.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const Timestamp = Type.String({ format: 'date-time' });
const RoleJson = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]);
const WorkspaceParams = Type.Object({ id: Id });

const WorkspaceJson = Type.Object({ id: Type.Integer(), name: Type.String(), is_personal: Type.Boolean(), role: RoleJson, created_at: Timestamp });
const MemberJson = Type.Object({ workspace_id: Type.Integer(), user_id: Type.Integer(), email: Type.String(), role: RoleJson, created_at: Timestamp });
const ScopeJson = Type.Union(API_KEY_SCOPES.map((scope) => Type.Literal(scope)));
const ApiKeyFields = {
  id: Type.Integer(), name: Type.String(), prefix: Type.String(),
  scopes: Type.Array(ScopeJson, { description: 'What the key may do (ADR 0032).' }),
  expires_at: Type.Union([Timestamp, Type.Null()], { description: 'When the key stops working; null: never.' }),
  created_at: Timestamp,
};
const ApiKeyJson = Type.Object({
  ...ApiKeyFields, last_used_at: Type.Union([Timestamp, Type.Null()], { description: 'Recorded at most once a minute.' }),
});
const CreatedApiKeyJson = Type.Object({
  ...ApiKeyFields, key: Type.String({ description: 'The secret, shown only in this response. Send as `Authorization: Bearer lfk_…`.' }),
});
const CreateApiKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: Type.Optional(Type.Array(ScopeJson, {
    minItems: 1, maxItems: API_KEY_SCOPES.length, uniqueItems: true,
    description: 'Any non-empty set of the four scopes; all four when omitted, the power keys had before scopes.',
  })),
  expires_at: Type.Optional(Type.Union([Timestamp, Type.Null()], { description: 'A time in the future after which the key stops working; never when omitted or null.' })),
}, { additionalProperties: false });

const iso = (ms: number) => new Date(ms).toISOString();
const workspaceToJson = (w: Membership) => ({ id: w.id, name: w.name, is_personal: w.isPersonal, role: w.role, created_at: iso(w.createdAt) });
const memberToJson = (m: Member) => ({ workspace_id: m.workspaceId, user_id: m.userId, email: m.email, role: m.role, created_at: iso(m.createdAt) });
const optionalIso = (ms: number | null) => (ms === null ? null : iso(ms));
const apiKeyToJson = (k: ApiKey) => ({
  id: k.id, name: k.name, prefix: k.prefix, scopes: [...k.scopes], expires_at: optionalIso(k.expiresAt), created_at: iso(k.createdAt), last_used_at: optionalIso(k.lastUsedAt),
});

/** What every route here shares: the typed app, the guard and the OpenAPI tags. */
function routeKit(app: FastifyInstance, context: RouteContext) {
  return {
    typedApp: app.withTypeProvider<TypeBoxTypeProvider>(),
    preHandler: context.guards.requireUserOrApiKey,
    common: { tags: ['workspaces'], security: JWT_OR_API_KEY_SECURITY },
  };
}
type RouteKit = ReturnType<typeof routeKit>;

/** Workspace API v1 (snake_case): workspaces, members and API keys. A non-member gets 404 for every route. */
export function registerWorkspaceRoutes(app: FastifyInstance, accounts: AccountServices, context: RouteContext): void {
  const kit = routeKit(app, context);
  registerWorkspaceCollectionRoutes(kit, accounts);
  registerMemberRoutes(kit, accounts);
  registerApiKeyRoutes(kit, accounts);
}

/** `/api/v1/workspaces`: create a workspace, list the caller's. */
function registerWorkspaceCollectionRoutes({ typedApp, preHandler, common }: RouteKit, accounts: AccountServices): void {
  typedApp.post('/api/v1/workspaces', {
    preHandler,
    config: { apiKeyScope: 'workspace:admin' },
    schema: {
      ...common, operationId: 'createWorkspace', summary: 'Create a workspace; the caller becomes its owner',
      body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
      response: { 201: WorkspaceJson, ...errorResponses(400, 401, 403, 503) },
    },
  }, async (request, reply) => {
    const workspace = await createWorkspace(accounts, principalOf(request), request.body.name);
    reply.status(201).header('location', `/api/v1/workspaces/${workspace.id}`);
    return workspaceToJson(workspace);
  });

  typedApp.get('/api/v1/workspaces', {
    preHandler,
    config: { apiKeyScope: 'links:read' },
    schema: { ...common, operationId: 'listWorkspaces', summary: 'Workspaces the caller belongs to', response: { 200: Type.Object({ workspaces: Type.Array(WorkspaceJson) }), ...errorResponses(401, 503) } },
  }, async (request) => ({ workspaces: (await listWorkspaces(accounts, principalOf(request))).map(workspaceToJson) }));
}

/** `/api/v1/workspaces/{id}/members`: list, add and remove members. */
function registerMemberRoutes({ typedApp, preHandler, common }: RouteKit, accounts: AccountServices): void {
  typedApp.get('/api/v1/workspaces/:id/members', {
    preHandler,
    config: { apiKeyScope: 'workspace:admin' },
    schema: { ...common, operationId: 'listMembers', summary: 'Members of a workspace', params: WorkspaceParams, response: { 200: Type.Object({ members: Type.Array(MemberJson) }), ...errorResponses(400, 401, 404, 503) } },
  }, async (request) => {
    const { id } = request.params;
    return { members: (await listMembers(accounts, principalOf(request), id)).map(memberToJson) };
  });

  typedApp.post('/api/v1/workspaces/:id/members', {
    preHandler,
    config: { apiKeyScope: 'workspace:admin' },
    schema: {
      ...common, operationId: 'addMember', summary: 'Add a registered user as admin or member (owners and admins)', params: WorkspaceParams,
      body: Type.Object({ email: Type.String({ maxLength: 320 }), role: RoleJson }, { additionalProperties: false }),
      response: { 201: MemberJson, ...errorResponses(400, 401, 403, 404, 409, 503) },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    const member = await addMember(accounts, principalOf(request), id, request.body);
    reply.status(201);
    return memberToJson(member);
  });

  typedApp.delete('/api/v1/workspaces/:id/members/:userId', {
    preHandler,
    config: { apiKeyScope: 'workspace:admin' },
    schema: {
      ...common, operationId: 'removeMember', summary: 'Remove a member, or leave (the last owner cannot)', params: Type.Object({ id: Id, userId: Id }),
      response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 409, 503) },
    },
  }, async (request, reply) => {
    const { id, userId } = request.params;
    await removeMember(accounts, principalOf(request), id, userId);
    return reply.status(204).send(null);
  });
}

/** `/api/v1/workspaces/{id}/api-keys`: create, list and revoke API keys. */
function registerApiKeyRoutes({ typedApp, preHandler, common }: RouteKit, accounts: AccountServices): void {
  typedApp.post('/api/v1/workspaces/:id/api-keys', {
    preHandler,
    config: { apiKeyScope: 'workspace:admin' },
    schema: {
      ...common, operationId: 'createApiKey', summary: 'Create an API key (owners and admins); the secret is shown once', params: WorkspaceParams,
      body: CreateApiKeyBody,
      response: { 201: CreatedApiKeyJson, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    const { name, scopes, expires_at: expiresAt } = request.body;
    const key = await createApiKey(accounts, principalOf(request), id, { name, scopes, expiresAt: expiresAt == null ? null : Date.parse(expiresAt) });
    reply.status(201);
    return { ...apiKeyToJson(key), key: key.key };
  });

  typedApp.get('/api/v1/workspaces/:id/api-keys', {
    preHandler,
    config: { apiKeyScope: 'workspace:admin' },
    schema: { ...common, operationId: 'listApiKeys', summary: 'API keys of a workspace, without secrets', params: WorkspaceParams, response: { 200: Type.Object({ api_keys: Type.Array(ApiKeyJson) }), ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request) => {
    const { id } = request.params;
    return { api_keys: (await listApiKeys(accounts, principalOf(request), id)).map(apiKeyToJson) };
  });

  typedApp.delete('/api/v1/workspaces/:id/api-keys/:keyId', {
    preHandler,
    config: { apiKeyScope: 'workspace:admin' },
    schema: { ...common, operationId: 'revokeApiKey', summary: 'Revoke an API key', params: Type.Object({ id: Id, keyId: Id }), response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request, reply) => {
    const { id, keyId } = request.params;
    await revokeApiKey(accounts, principalOf(request), id, keyId);
    return reply.status(204).send(null);
  });
}
