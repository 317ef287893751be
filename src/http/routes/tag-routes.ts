import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Tag, TagWithCount } from '../../core/tag-ports.js';
import { MAX_TAG_NAME_LENGTH, TAG_PALETTE } from '../../core/tag-rules.js';
import type { OwnedLinkDeps } from '../../links/link-access.js';
import { createTag } from '../../links/tags/create-tag.js';
import { deleteTag } from '../../links/tags/delete-tag.js';
import { listTags } from '../../links/tags/list-tags.js';
import { updateTag } from '../../links/tags/update-tag.js';
import { JWT_OR_API_KEY_SECURITY, principalOf } from '../auth.js';
import { Id } from '../link-fields.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';

const TagName = Type.String({ maxLength: 200, description: `1–${MAX_TAG_NAME_LENGTH} letters, digits, spaces or - _ . / & +, starting with a letter or digit; unique in the workspace whatever its case.` });
const TagColour = Type.String({ maxLength: 40, description: `One of ${TAG_PALETTE.join(', ')}, or #rrggbb.` });

export const TagJson = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  colour: Type.String({ description: `One of ${TAG_PALETTE.join(', ')}, or #rrggbb.` }),
  created_at: Type.String({ format: 'date-time' }),
}, { $id: 'Tag' });
const TagWithCountJson = Type.Intersect([Type.Ref('Tag'), Type.Object({ link_count: Type.Integer({ minimum: 0, description: 'Links carrying the tag, deleted ones included.' }) })]);

const WorkspaceParams = Type.Object({ id: Id });
const TagParams = Type.Object({ id: Id, tagId: Id });
const CreateTagBody = Type.Object({ name: TagName, colour: Type.Optional(TagColour) }, { additionalProperties: false });
const UpdateTagBody = Type.Object({ name: Type.Optional(TagName), colour: Type.Optional(TagColour) }, { additionalProperties: false, minProperties: 1 });

const TAGS_PATH = '/api/v1/workspaces/:id/tags';

function tagToJson(tag: Tag) {
  return { id: tag.id, name: tag.name, colour: tag.colour, created_at: new Date(tag.createdAt).toISOString() };
}

function tagWithCountToJson(tag: TagWithCount) {
  return { ...tagToJson(tag), link_count: tag.linkCount };
}

/**
 * A workspace's tags (ADR 0030): members list and create them (links make them too), owners and
 * admins (and the workspace's API keys) rename, recolour and delete them.
 */
export function registerTagRoutes(app: FastifyInstance, owned: OwnedLinkDeps, context: RouteContext): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  const preHandler = context.guards.requireUserOrApiKey;
  const common = { tags: ['tags'], security: JWT_OR_API_KEY_SECURITY };

  typedApp.get(TAGS_PATH, {
    preHandler,
    config: { apiKeyScope: 'links:read' },
    schema: {
      ...common, operationId: 'listTags', summary: 'The workspace\'s tags in name order, with how many links carry each', params: WorkspaceParams,
      response: { 200: Type.Object({ items: Type.Array(TagWithCountJson) }), ...errorResponses(400, 401, 404, 503) },
    },
  }, async (request) => ({ items: (await listTags(owned, principalOf(request), request.params.id)).map(tagWithCountToJson) }));

  typedApp.post(TAGS_PATH, {
    preHandler,
    config: { apiKeyScope: 'links:write' },
    schema: {
      ...common, operationId: 'createTag', summary: 'Create a tag (links given unknown tag names make them too)', params: WorkspaceParams, body: CreateTagBody,
      response: { 201: Type.Ref('Tag'), ...errorResponses(400, 401, 404, 409, 503) },
    },
  }, async (request, reply) => {
    const tag = await createTag(owned, principalOf(request), request.params.id, request.body);
    reply.status(201).header('location', `${TAGS_PATH.replace(':id', String(request.params.id))}/${tag.id}`);
    return tagToJson(tag);
  });

  typedApp.patch(`${TAGS_PATH}/:tagId`, {
    preHandler,
    config: { apiKeyScope: 'links:write' },
    schema: {
      ...common, operationId: 'updateTag', summary: 'Rename or recolour a tag (owners and admins)', params: TagParams, body: UpdateTagBody,
      response: { 200: Type.Ref('Tag'), ...errorResponses(400, 401, 403, 404, 409, 503) },
    },
  }, async (request) => tagToJson(await updateTag(owned, principalOf(request), request.params.id, request.params.tagId, request.body)));

  typedApp.delete(`${TAGS_PATH}/:tagId`, {
    preHandler,
    config: { apiKeyScope: 'links:write' },
    schema: {
      ...common, operationId: 'deleteTag', summary: 'Delete a tag and take it off every link (owners and admins)', params: TagParams,
      response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request, reply) => {
    await deleteTag(owned, principalOf(request), request.params.id, request.params.tagId);
    return reply.status(204).send(null);
  });
}
