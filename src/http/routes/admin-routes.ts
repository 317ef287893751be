import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AdminServices } from '../../admin/admin-services.js';
import { getInstanceOverview, listBlocklist } from '../../admin/instance-overview.js';
import { disableLink, enableLink, findLinkForOperator, MAX_REASON_LENGTH } from '../../admin/operator-links.js';
import { disableUser, enableUser, searchUsers } from '../../admin/operator-users.js';
import type { User } from '../../core/account-ports.js';
import type { LinkForOperator } from '../../core/admin-ports.js';
import { effectiveStatus } from '../../core/link.js';
import { adminOnly } from '../admin-guard.js';
import { JWT_SECURITY, principalOf } from '../auth.js';
import { Cursor, Id, NextCursor } from '../link-fields.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';
import { globalStatsToJson, GlobalStatsJson } from './stats-routes.js';

const Count = Type.Integer({ minimum: 0 });
const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const Search = Type.String({ maxLength: 200, description: 'A case-insensitive part to look for.' });

const OverviewJson = Type.Object({
  users: Type.Object({ total: Count, admins: Count, disabled: Count }),
  workspaces: Count,
  apiKeys: Count,
  links: Type.Object({
    active: Count, expired: Count, deleted: Count,
    disabled: Type.Integer({ minimum: 0, description: 'Disabled by an operator, whatever their own status.' }),
    temporary: Count, permanent: Count,
  }),
  traffic: GlobalStatsJson,
});

const AdminUserJson = Type.Object({
  id: Type.Integer(), email: Type.String(), role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
  createdAt: Timestamp, disabledAt: NullableTimestamp,
}, { $id: 'AdminUser' });

const OperatorLinkJson = Type.Object({
  id: Type.Integer(),
  shortCode: Type.String(),
  shortUrl: Type.String(),
  originalUrl: Type.String(),
  linkType: Type.Union([Type.Literal('TEMPORARY'), Type.Literal('PERMANENT')]),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('EXPIRED'), Type.Literal('DELETED')], { description: 'The link\'s own status, as its owner sees it.' }),
  workspaceId: Type.Union([Type.Integer(), Type.Null()]),
  workspaceName: Type.Union([Type.String(), Type.Null()]),
  ownerEmail: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  expiresAt: NullableTimestamp,
  deletedAt: NullableTimestamp,
  redirectCount: Count,
  humanCount: Count,
  disabledAt: NullableTimestamp,
  disabledReason: Type.Union([Type.String(), Type.Null()], { description: 'While set, the link answers 410 `link_disabled` with this reason.' }),
}, { $id: 'OperatorLink' });

const CodeParams = Type.Object({ code: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) });
const UserParams = Type.Object({ id: Id });

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const userToJson = (u: User) => ({ id: u.id, email: u.email, role: u.role, createdAt: iso(u.createdAt)!, disabledAt: iso(u.disabledAt) });

function operatorLinkToJson({ link, ownerEmail, workspaceName }: LinkForOperator, baseUrl: string, now: number) {
  return {
    id: link.id, shortCode: link.code, shortUrl: `${baseUrl}/${link.code}`, originalUrl: link.originalUrl, linkType: link.linkType,
    status: effectiveStatus(link, now), workspaceId: link.workspaceId, workspaceName, ownerEmail,
    createdAt: iso(link.createdAt)!, expiresAt: iso(link.expiresAt), deletedAt: iso(link.deletedAt),
    redirectCount: link.redirectCount, humanCount: link.humanCount, disabledAt: iso(link.disabledAt), disabledReason: link.disabledReason,
  };
}

/** What every route here shares: the typed app, the 404-for-everyone-else guard and the OpenAPI tags. */
function routeKit(app: FastifyInstance, context: RouteContext) {
  return {
    typedApp: app.withTypeProvider<TypeBoxTypeProvider>(),
    onRequest: adminOnly(context.guards),
    common: { tags: ['admin'], security: JWT_SECURITY, description: 'Site admins only; anyone else gets the 404 of an unknown route.' },
  };
}
type RouteKit = ReturnType<typeof routeKit>;

/** The operator's API behind `/app/admin`: the instance's counters, its blocklist, its users and any link by code. */
export function registerAdminRoutes(app: FastifyInstance, admin: AdminServices, context: RouteContext): void {
  const kit = routeKit(app, context);
  registerInstanceRoutes(kit, admin);
  registerUserRoutes(kit, admin);
  registerLinkRoutes(kit, admin, context);
}

function registerInstanceRoutes({ typedApp, onRequest, common }: RouteKit, admin: AdminServices): void {
  typedApp.get('/api/admin/overview', {
    onRequest,
    schema: {
      ...common, operationId: 'getAdminOverview', summary: 'The instance at a glance: users, workspaces, API keys, links by state, traffic',
      response: { 200: OverviewJson, ...errorResponses(404, 503) },
    },
  }, async () => {
    const { counts, traffic } = await getInstanceOverview(admin);
    return {
      users: { total: counts.users, admins: counts.admins, disabled: counts.disabledUsers },
      workspaces: counts.workspaces, apiKeys: counts.apiKeys, links: counts.links, traffic: globalStatsToJson(traffic),
    };
  });

  typedApp.get('/api/admin/blocklist', {
    onRequest,
    schema: {
      ...common, operationId: 'getBlocklist', summary: 'The destination domains this instance refuses (BLOCKLIST_FILE, as loaded at start)',
      querystring: Type.Object({ q: Type.Optional(Search), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })) }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          file: Type.Union([Type.String(), Type.Null()]), total: Count,
          matching: Type.Integer({ minimum: 0, description: 'Domains that contain `q` (all of them without it); `domains` holds the first `limit`, sorted.' }),
          domains: Type.Array(Type.String()),
        }),
        ...errorResponses(404),
      },
    },
  }, async (request) => listBlocklist(admin, { search: request.query.q, limit: request.query.limit }));
}

function registerUserRoutes({ typedApp, onRequest, common }: RouteKit, admin: AdminServices): void {
  typedApp.get('/api/admin/users', {
    onRequest,
    schema: {
      ...common, operationId: 'listAdminUsers', summary: 'Every user, newest first, or those whose email contains `q`',
      querystring: Type.Object({
        q: Type.Optional(Search), cursor: Type.Optional(Cursor), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(AdminUserJson), nextCursor: NextCursor }), ...errorResponses(400, 404, 503) },
    },
  }, async (request) => {
    const page = await searchUsers(admin, { search: request.query.q, cursor: request.query.cursor, limit: request.query.limit });
    return { items: page.items.map(userToJson), nextCursor: page.nextCursor };
  });

  typedApp.post('/api/admin/users/:id/disable', {
    onRequest,
    schema: {
      ...common, operationId: 'disableUser', params: UserParams,
      summary: 'Disable a user: they cannot sign in, and their tokens and API keys stop working at once',
      response: { 200: AdminUserJson, ...errorResponses(404, 409, 503) },
    },
  }, async (request) => userToJson(await disableUser(admin, principalOf(request).userId, request.params.id)));

  typedApp.post('/api/admin/users/:id/enable', {
    onRequest,
    schema: {
      ...common, operationId: 'enableUser', params: UserParams, summary: 'Enable a disabled user again',
      response: { 200: AdminUserJson, ...errorResponses(404, 503) },
    },
  }, async (request) => userToJson(await enableUser(admin, request.params.id)));
}

function registerLinkRoutes({ typedApp, onRequest, common }: RouteKit, admin: AdminServices, context: RouteContext): void {
  const toJson = (found: LinkForOperator) => operatorLinkToJson(found, context.baseUrl, context.clock.now());

  typedApp.get('/api/admin/links/:code', {
    onRequest,
    schema: {
      ...common, operationId: 'getAdminLink', params: CodeParams, summary: 'Any link by its short code, whoever owns it',
      response: { 200: OperatorLinkJson, ...errorResponses(404, 503) },
    },
  }, async (request) => toJson(await findLinkForOperator(admin, request.params.code)));

  typedApp.post('/api/admin/links/:code/disable', {
    onRequest,
    schema: {
      ...common, operationId: 'disableLink', params: CodeParams,
      summary: 'Disable a link: it answers 410 `link_disabled` with the reason, on every instance at once',
      body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: MAX_REASON_LENGTH, description: 'Shown to everyone who follows the link.' }) }, { additionalProperties: false }),
      response: { 200: OperatorLinkJson, ...errorResponses(400, 404, 503) },
    },
  }, async (request) => toJson(await disableLink(admin, principalOf(request).userId, request.params.code, request.body.reason)));

  typedApp.post('/api/admin/links/:code/enable', {
    onRequest,
    schema: {
      ...common, operationId: 'enableLink', params: CodeParams, summary: 'Enable a disabled link: it redirects again as its own status says',
      response: { 200: OperatorLinkJson, ...errorResponses(404, 503) },
    },
  }, async (request) => toJson(await enableLink(admin, request.params.code)));
}
