import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { claimLinks, MAX_CLAIM_ENTRIES, type ClaimResult } from '../../links/claim-links.js';
import { createOwnedLink } from '../../links/create-owned-link.js';
import { deleteLink } from '../../links/delete-link.js';
import { findAccessibleLink, type OwnedLinkDeps } from '../../links/link-access.js';
import { describeListedLinks, listLinks, permissionsOfLinks } from '../../links/list-links.js';
import { LinkMatchFields, linkMatchOf, ListedLinkExtras, listedLinkToJson } from '../listed-link-json.js';
import { restoreLink } from '../../links/restore-link.js';
import { updateLink } from '../../links/update-link.js';
import { JWT_SECURITY, principalOf } from '../auth.js';
import { LinkDomain } from '../link-fields.js';
import { Cursor, CustomCode, DestinationUrl, Expiry, ExpiryOrNull, Id, NextCursor, PageSize, RedirectStatusField, RedirectStatusOrNull, TagNames } from '../link-fields.js';
import { FallbackUrl, FallbackUrlOrNull, MaxClicks, MaxClicksOrNull, PreviewField, PreviewOrNull, RoutesOrNull, VariantsOrNull } from '../link-fields.js';
import type { Link } from '../../core/link.js';
import { tagNamesOfLinks } from '../../links/tags/link-tags.js';
import { ConfirmBeforeRedirect, LinkPassword, LinkPasswordOrNull } from '../link-password-fields.js';
import { linkToJson, timestampFromJson } from '../link-json.js';
import { rateLimitPerMinute } from '../rate-limit.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';

const LinkRef = Type.Ref('Link');
const LinkParams = Type.Object({ id: Id });

const CreateLinkBody = Type.Object({
  url: DestinationUrl,
  customCode: Type.Optional(CustomCode),
  domain: Type.Optional(LinkDomain),
  expiresAt: Type.Optional(Expiry),
  workspaceId: Type.Optional(Id),
  tags: Type.Optional(TagNames),
  redirectStatus: Type.Optional(RedirectStatusField),
  preview: Type.Optional(PreviewField),
  maxClicks: Type.Optional(MaxClicks),
  fallbackUrl: Type.Optional(FallbackUrl),
  routes: Type.Optional(RoutesOrNull),
  variants: Type.Optional(VariantsOrNull),
  password: Type.Optional(LinkPassword),
  confirmBeforeRedirect: Type.Optional(ConfirmBeforeRedirect),
}, { additionalProperties: false });

const ListLinksQuery = Type.Object({
  ...LinkMatchFields,
  cursor: Type.Optional(Cursor),
  sort: Type.Optional(Type.Union([Type.Literal('created'), Type.Literal('clicks'), Type.Literal('lastClick')], {
    description: 'created (the default), clicks (people\'s), or lastClick (the hour of the last click by a person; never-clicked links count as oldest).',
  })),
  order: Type.Optional(Type.Union([Type.Literal('desc'), Type.Literal('asc')], { default: 'desc' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Links to skip: page numbers. A cursor pages the default order only; with sort, order or offset, nextCursor is null.' })),
  limit: Type.Optional(PageSize),
}, { additionalProperties: false });

const ListedLink = Type.Intersect([LinkRef, ListedLinkExtras]);

const UpdateLinkBody = Type.Object({
  url: Type.Optional(DestinationUrl),
  expiresAt: Type.Optional(ExpiryOrNull),
  tags: Type.Optional(TagNames),
  redirectStatus: Type.Optional(RedirectStatusOrNull),
  preview: Type.Optional(PreviewOrNull),
  maxClicks: Type.Optional(MaxClicksOrNull),
  fallbackUrl: Type.Optional(FallbackUrlOrNull),
  routes: Type.Optional(RoutesOrNull),
  variants: Type.Optional(VariantsOrNull),
  password: Type.Optional(LinkPasswordOrNull),
  confirmBeforeRedirect: Type.Optional(ConfirmBeforeRedirect),
}, { additionalProperties: false, minProperties: 1 });

// The UI stores whatever POST /api/urls/public answered (an ISO string), but older or other clients
// may keep epoch milliseconds. The server's own row decides expiry, so the value is never parsed:
// a format the server does not read must not fail the whole sync and lose the other claims.
const StoredExpiry = Type.Union([
  Type.String({ maxLength: 64 }),
  Type.Number(),
  Type.Null(),
], { description: 'Informational only, ignored: the expiry the client stored (ISO 8601 text or epoch milliseconds, or null). The stored link decides whether it can still be claimed.' });

const SyncBody = Type.Object({
  links: Type.Array(Type.Object({
    shortCode: Type.String({ maxLength: 200 }),
    claimToken: Type.String({ maxLength: 200 }),
    url: Type.String({ maxLength: 16_384 }),
    expiresAt: Type.Optional(StoredExpiry),
  }, { additionalProperties: false, description: 'One anonymous link as the web UI keeps it in localStorage.' }), {
    maxItems: MAX_CLAIM_ENTRIES,
    description: `At most ${MAX_CLAIM_ENTRIES} entries per request (more is a 400, nothing claimed); send longer lists in batches. The whole body is also limited to 64 KiB (413).`,
  }),
}, { additionalProperties: false });

const SyncResponse = Type.Object({
  results: Type.Array(Type.Object({
    shortCode: Type.String(),
    outcome: Type.Union([Type.Literal('claimed'), Type.Literal('created'), Type.Literal('existing'), Type.Literal('rejected')]),
    reason: Type.Optional(Type.String()),
    link: Type.Optional(LinkRef),
  })),
});

/** What every route here shares: the typed app, the guard, the OpenAPI tags and the link's JSON. */
function routeKit(app: FastifyInstance, owned: OwnedLinkDeps, context: RouteContext) {
  const withTags = (link: Link, tags: readonly string[]) => linkToJson(link, context.urls, context.clock.now(), tags);
  const linksToJson = async (links: readonly Link[]) => {
    const tags = await tagNamesOfLinks(owned, links);
    return links.map((link) => withTags(link, tags.get(link.id)!));
  };
  return {
    typedApp: app.withTypeProvider<TypeBoxTypeProvider>(),
    preHandler: context.guards.requireUser,
    common: { tags: ['links'], security: JWT_SECURITY },
    linksToJson,
    toJson: async (link: Link) => (await linksToJson([link]))[0]!,
    withTags,
  };
}
type RouteKit = ReturnType<typeof routeKit>;

/** App API (camelCase, JWT): the signed-in user's links. Anyone else's link id answers 404. */
export function registerLinkRoutes(app: FastifyInstance, owned: OwnedLinkDeps, context: RouteContext): void {
  const kit = routeKit(app, owned, context);
  registerLinkCollectionRoutes(kit, owned);
  registerLinkItemRoutes(kit, owned);
  registerSyncRoute(kit, owned, context);
}

/** `/api/urls`: create a link, list them. */
function registerLinkCollectionRoutes({ typedApp, preHandler, common, toJson, withTags, linksToJson }: RouteKit, owned: OwnedLinkDeps): void {
  typedApp.post('/api/urls', {
    preHandler,
    schema: {
      ...common, operationId: 'createLink', summary: 'Create a permanent link (201), or answer the one this workspace already has for the URL (200)',
      body: CreateLinkBody,
      response: { 200: LinkRef, 201: LinkRef, ...errorResponses(400, 401, 404, 409, 413, 500, 503) },
    },
  }, async (request, reply) => {
    const body = request.body;
    const { link, created } = await createOwnedLink(owned, principalOf(request), {
      url: body.url, workspaceId: body.workspaceId, domain: body.domain, customCode: body.customCode, expiresAt: timestampFromJson(body.expiresAt), tags: body.tags,
      redirectStatus: body.redirectStatus, password: body.password, confirmBeforeRedirect: body.confirmBeforeRedirect,
      preview: body.preview, maxClicks: body.maxClicks, fallbackUrl: body.fallbackUrl, routes: body.routes, variants: body.variants,
    });
    reply.status(created ? 201 : 200).header('location', `/api/urls/${link.id}`);
    // A link made just now without tags has none: its answer reads no tags.
    return created && !body.tags?.length ? withTags(link, []) : toJson(link);
  });

  typedApp.get('/api/urls', {
    preHandler,
    schema: {
      ...common, operationId: 'listLinks', summary: 'Links of your workspaces (or one), newest first or sorted, with what you may do with each',
      querystring: ListLinksQuery,
      response: {
        200: Type.Object({ items: Type.Array(ListedLink), nextCursor: NextCursor, total: Type.Integer({ minimum: 0, description: 'Every link the filters match.' }) }),
        ...errorResponses(400, 401, 404, 503),
      },
    },
  }, async (request) => {
    const { sort, order, offset, limit, cursor, ...match } = request.query;
    const principal = principalOf(request);
    const page = await listLinks(owned, principal, { ...linkMatchOf(match), sort, ascending: order === 'asc', offset, limit, cursor });
    const extras = await describeListedLinks(owned, principal, page.items);
    const json = await linksToJson(page.items);
    return { items: page.items.map((link, i) => listedLinkToJson(json[i]!, link, extras.get(link.id)!)), nextCursor: page.nextCursor, total: page.total };
  });
}

/** `/api/urls/{id}`: one link, read, changed, deleted or restored. */
function registerLinkItemRoutes({ typedApp, preHandler, common, toJson }: RouteKit, owned: OwnedLinkDeps): void {
  typedApp.get('/api/urls/:id', {
    preHandler,
    schema: {
      ...common, operationId: 'getLink', summary: 'One link with its analytics fields and what you may do with it', params: LinkParams,
      response: { 200: Type.Intersect([LinkRef, Type.Pick(ListedLinkExtras, ['permissions'])]), ...errorResponses(400, 401, 404, 503) },
    },
  }, async (request) => {
    const principal = principalOf(request);
    const link = await findAccessibleLink(owned, principal, request.params, 'read');
    const permissions = (await permissionsOfLinks(owned, principal, [link])).get(link.id)!;
    return { ...await toJson(link), permissions };
  });

  typedApp.patch('/api/urls/:id', {
    preHandler,
    schema: {
      ...common, operationId: 'updateLink', summary: 'Change the destination, the expiry, the tags or the redirect status', params: LinkParams, body: UpdateLinkBody,
      response: { 200: LinkRef, ...errorResponses(400, 401, 404, 409, 503) },
    },
  }, async (request) => {
    const body = request.body;
    const update = {
      url: body.url, expiresAt: timestampFromJson(body.expiresAt), tags: body.tags, redirectStatus: body.redirectStatus,
      password: body.password, confirmBeforeRedirect: body.confirmBeforeRedirect,
      preview: body.preview, maxClicks: body.maxClicks, fallbackUrl: body.fallbackUrl, routes: body.routes, variants: body.variants,
    };
    return toJson(await updateLink(owned, principalOf(request), request.params, update));
  });

  typedApp.delete('/api/urls/:id', {
    preHandler,
    schema: { ...common, operationId: 'deleteLink', summary: 'Soft-delete a link (restorable until purged)', params: LinkParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 404, 503) } },
  }, async (request, reply) => {
    await deleteLink(owned, principalOf(request), request.params);
    return reply.status(204).send(null);
  });

  typedApp.post('/api/urls/:id/restore', {
    preHandler,
    schema: { ...common, operationId: 'restoreLink', summary: 'Restore a soft-deleted link', params: LinkParams, response: { 200: LinkRef, ...errorResponses(400, 401, 404, 409, 503) } },
  }, async (request) => toJson(await restoreLink(owned, principalOf(request), request.params)));
}

/** `/api/urls/sync`: anonymous links claimed into the caller's personal workspace. */
function registerSyncRoute({ typedApp, preHandler, common, linksToJson }: RouteKit, owned: OwnedLinkDeps, context: RouteContext): void {
  typedApp.post('/api/urls/sync', {
    preHandler,
    // Tokens are 256-bit, so guessing is hopeless; the limit keeps sync from being a cheap way to mass-create links.
    config: { rateLimit: rateLimitPerMinute(context.rateLimit.authPerMinute), rateLimitPolicy: 'auth' },
    schema: {
      ...common, operationId: 'syncLinks', summary: 'Claim anonymous links (code + claim token) into your personal workspace',
      description: `Entries are \`{shortCode, claimToken, url, expiresAt?}\`, as the web UI stores them; at most ${MAX_CLAIM_ENTRIES} per request. Each entry answers claimed, created, existing or rejected (with a reason).`,
      body: SyncBody,
      response: { 200: SyncResponse, ...errorResponses(400, 401, 413, 429, 503) },
    },
  }, async (request) => {
    const { links } = request.body;
    const results = await claimLinks(owned, principalOf(request), links);
    const answered = results.flatMap((result: ClaimResult) => (result.link ? [result.link] : []));
    const json = new Map((await linksToJson(answered)).map((link) => [link.id, link]));
    return { results: results.map((result: ClaimResult) => ({ ...result, link: result.link && json.get(result.link.id) })) };
  });
}
