import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { Link } from '../../core/link.js';
import { createOwnedLink } from '../../links/create-owned-link.js';
import { deleteLink } from '../../links/delete-link.js';
import { findAccessibleLink, type OwnedLinkDeps } from '../../links/link-access.js';
import { listLinks } from '../../links/list-links.js';
import { restoreLink } from '../../links/restore-link.js';
import { updateLink } from '../../links/update-link.js';
import { JWT_OR_API_KEY_SECURITY, principalOf } from '../auth.js';
import { DomainQuery, LinkDomain } from '../link-fields.js';
import { Cursor, CustomCode, DestinationUrl, Expiry, ExpiryOrNull, Id, NextCursor, PageSize, RedirectStatusField, RedirectStatusOrNull, TagFilter, TagMode, TagNames, tagFilterOf } from '../link-fields.js';
import { FallbackUrl, FallbackUrlOrNull, MaxClicks, MaxClicksOrNull, PreviewField, PreviewOrNull, RoutesOrNull, VariantsOrNull } from '../link-fields.js';
import { tagNamesOfLinks } from '../../links/tags/link-tags.js';
import { ConfirmBeforeRedirect, LinkPassword, LinkPasswordOrNull } from '../link-password-fields.js';
import { linkToV1Json, timestampFromJson } from '../link-json.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';

const LinkRef = Type.Ref('LinkV1');
const WorkspaceParams = Type.Object({ id: Id });
const WorkspaceLinkParams = Type.Object({ id: Id, short_code: Type.String({ minLength: 1, maxLength: 64 }) });
type WorkspaceLinkParams = Static<typeof WorkspaceLinkParams>;

const CreateLinkBody = Type.Object({
  original_url: DestinationUrl,
  custom_code: Type.Optional(CustomCode),
  domain: Type.Optional(LinkDomain),
  expires_at: Type.Optional(Expiry),
  tags: Type.Optional(TagNames),
  redirect_status: Type.Optional(RedirectStatusField),
  preview: Type.Optional(PreviewField),
  max_clicks: Type.Optional(MaxClicks),
  fallback_url: Type.Optional(FallbackUrl),
  routes: Type.Optional(RoutesOrNull),
  variants: Type.Optional(VariantsOrNull),
  password: Type.Optional(LinkPassword),
  confirm_before_redirect: Type.Optional(ConfirmBeforeRedirect),
}, { additionalProperties: false });

const UpdateLinkBody = Type.Object({
  original_url: Type.Optional(DestinationUrl),
  expires_at: Type.Optional(ExpiryOrNull),
  tags: Type.Optional(TagNames),
  redirect_status: Type.Optional(RedirectStatusOrNull),
  preview: Type.Optional(PreviewOrNull),
  max_clicks: Type.Optional(MaxClicksOrNull),
  fallback_url: Type.Optional(FallbackUrlOrNull),
  routes: Type.Optional(RoutesOrNull),
  variants: Type.Optional(VariantsOrNull),
  password: Type.Optional(LinkPasswordOrNull),
  confirm_before_redirect: Type.Optional(ConfirmBeforeRedirect),
}, { additionalProperties: false, minProperties: 1 });

const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Only links whose short code or original URL contains this (case-insensitive).' })),
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(PageSize),
  tags: Type.Optional(TagFilter),
  tag_mode: Type.Optional(TagMode),
}, { additionalProperties: false });

const selectorOf = (params: WorkspaceLinkParams, query: { domain?: string }) => ({ workspaceId: params.id, code: params.short_code, domain: query.domain });

const LINKS_PATH = '/api/v1/workspaces/:id/links';

/** What every route here shares: the typed app, the guard, the OpenAPI tags and the link's JSON. */
function routeKit(app: FastifyInstance, owned: OwnedLinkDeps, context: RouteContext) {
  const linksToJson = async (links: readonly Link[]) => {
    const tags = await tagNamesOfLinks(owned, links);
    return links.map((link) => linkToV1Json(link, context.urls, context.clock.now(), tags.get(link.id)!));
  };
  return {
    typedApp: app.withTypeProvider<TypeBoxTypeProvider>(),
    preHandler: context.guards.requireUserOrApiKey,
    common: { tags: ['workspaces'], security: JWT_OR_API_KEY_SECURITY },
    linksToJson,
    urls: context.urls,
    toJson: async (link: Link) => (await linksToJson([link]))[0]!,
  };
}
type RouteKit = ReturnType<typeof routeKit>;

/**
 * Workspace API v1 (snake_case, JWT or API key): the same use cases as the app API, addressed by
 * workspace and short code. A non-member gets 404 for the workspace; an API key acts only in its own.
 */
export function registerWorkspaceLinkRoutes(app: FastifyInstance, owned: OwnedLinkDeps, context: RouteContext): void {
  const kit = routeKit(app, owned, context);
  registerWorkspaceLinkCollectionRoutes(kit, owned);
  registerWorkspaceLinkItemRoutes(kit, owned);
}

/** `/api/v1/workspaces/{id}/links`: create a link, list them. */
function registerWorkspaceLinkCollectionRoutes({ typedApp, preHandler, common, toJson, linksToJson, urls }: RouteKit, owned: OwnedLinkDeps): void {
  typedApp.post(LINKS_PATH, {
    preHandler,
    config: { apiKeyScope: 'links:write' },
    schema: {
      ...common, operationId: 'createWorkspaceLink', summary: 'Create a permanent link (201), or answer the one the workspace already has for the URL (200)',
      params: WorkspaceParams, body: CreateLinkBody,
      response: { 200: LinkRef, 201: LinkRef, ...errorResponses(400, 401, 404, 409, 413, 500, 503) },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    const body = request.body;
    const { link, created } = await createOwnedLink(owned, principalOf(request), {
      url: body.original_url, workspaceId: id, domain: body.domain, customCode: body.custom_code, expiresAt: timestampFromJson(body.expires_at), tags: body.tags,
      redirectStatus: body.redirect_status, password: body.password, confirmBeforeRedirect: body.confirm_before_redirect,
      preview: body.preview, maxClicks: body.max_clicks, fallbackUrl: body.fallback_url, routes: body.routes, variants: body.variants,
    });
    const onDomain = body.domain === undefined ? '' : `?domain=${encodeURIComponent(urls.hostnameOf(link.domain))}`;
    reply.status(created ? 201 : 200).header('location', `${LINKS_PATH.replace(':id', String(id))}/${link.code}${onDomain}`);
    return toJson(link);
  });

  typedApp.get(LINKS_PATH, {
    preHandler,
    config: { apiKeyScope: 'links:read' },
    schema: {
      ...common, operationId: 'listWorkspaceLinks', summary: 'Links of the workspace, newest first, optionally only those matching a text or carrying some tags', params: WorkspaceParams, querystring: ListQuery,
      response: { 200: Type.Object({ items: Type.Array(LinkRef), next_cursor: NextCursor }), ...errorResponses(400, 401, 404, 503) },
    },
  }, async (request) => {
    const { id } = request.params;
    const { tags, tag_mode: tagMode, q: search, ...paging } = request.query;
    const page = await listLinks(owned, principalOf(request), { ...paging, workspaceId: id, search, tags: tagFilterOf(tags), tagMode });
    return { items: await linksToJson(page.items), next_cursor: page.nextCursor };
  });
}

/** `/api/v1/workspaces/{id}/links/{short_code}`: one link, read, changed, deleted or restored. */
function registerWorkspaceLinkItemRoutes({ typedApp, preHandler, common, toJson }: RouteKit, owned: OwnedLinkDeps): void {
  typedApp.get(`${LINKS_PATH}/:short_code`, {
    preHandler,
    config: { apiKeyScope: 'links:read' },
    schema: { ...common, operationId: 'getWorkspaceLink', summary: 'One link of the workspace', params: WorkspaceLinkParams, querystring: DomainQuery, response: { 200: LinkRef, ...errorResponses(400, 401, 404, 503) } },
  }, async (request) => toJson(await findAccessibleLink(owned, principalOf(request), selectorOf(request.params, request.query), 'read')));

  typedApp.patch(`${LINKS_PATH}/:short_code`, {
    preHandler,
    config: { apiKeyScope: 'links:write' },
    schema: {
      ...common, operationId: 'updateWorkspaceLink', summary: 'Change the destination, the expiry, the tags or the redirect status', params: WorkspaceLinkParams, querystring: DomainQuery, body: UpdateLinkBody,
      response: { 200: LinkRef, ...errorResponses(400, 401, 404, 409, 503) },
    },
  }, async (request) => {
    const body = request.body;
    const update = {
      url: body.original_url, expiresAt: timestampFromJson(body.expires_at), tags: body.tags, redirectStatus: body.redirect_status,
      password: body.password, confirmBeforeRedirect: body.confirm_before_redirect,
      preview: body.preview, maxClicks: body.max_clicks, fallbackUrl: body.fallback_url, routes: body.routes, variants: body.variants,
    };
    return toJson(await updateLink(owned, principalOf(request), selectorOf(request.params, request.query), update));
  });

  typedApp.delete(`${LINKS_PATH}/:short_code`, {
    preHandler,
    config: { apiKeyScope: 'links:write' },
    schema: { ...common, operationId: 'deleteWorkspaceLink', summary: 'Soft-delete a link (restorable until purged)', params: WorkspaceLinkParams, querystring: DomainQuery, response: { 204: Type.Null(), ...errorResponses(400, 401, 404, 503) } },
  }, async (request, reply) => {
    await deleteLink(owned, principalOf(request), selectorOf(request.params, request.query));
    return reply.status(204).send(null);
  });

  typedApp.post(`${LINKS_PATH}/:short_code/restore`, {
    preHandler,
    config: { apiKeyScope: 'links:write' },
    schema: { ...common, operationId: 'restoreWorkspaceLink', summary: 'Restore a soft-deleted link', params: WorkspaceLinkParams, querystring: DomainQuery, response: { 200: LinkRef, ...errorResponses(400, 401, 404, 409, 503) } },
  }, async (request) => toJson(await restoreLink(owned, principalOf(request), selectorOf(request.params, request.query))));
}
