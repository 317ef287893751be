import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { LinkforgeError } from '../../core/errors.js';
import { bulkChangeLinks, MAX_BULK_LINKS, selectBulkLinks, type BulkSelection } from '../../links/bulk-links.js';
import { exportLinks } from '../../links/export-links.js';
import type { LinkTransferDeps } from '../../links/link-services.js';
import type { OwnedLinkDeps } from '../../links/link-access.js';
import { exportText } from '../../portability/write-export.js';
import { JWT_SECURITY, principalOf } from '../auth.js';
import { Id, TagNames } from '../link-fields.js';
import { LinkMatchJson, linkMatchOf } from '../listed-link-json.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';

const SelectionFields = {
  ids: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: MAX_BULK_LINKS, description: `The selected links' ids, at most ${MAX_BULK_LINKS}.` })),
  matching: Type.Optional(Type.Intersect([LinkMatchJson], {
    description: `"All matching": every link the list's filters match, at most ${MAX_BULK_LINKS} (more is a 400 bulk_too_many). Give ids or matching, not both.`,
  })),
};

const BulkBody = Type.Object({
  action: Type.Union([Type.Literal('delete'), Type.Literal('restore'), Type.Literal('move'), Type.Literal('tag'), Type.Literal('untag')]),
  ...SelectionFields,
  workspaceId: Type.Optional(Type.Intersect([Id], { description: 'For move: the workspace to move the links to (one you belong to). Moved links keep their tags (made in the target workspace where missing).' })),
  tags: Type.Optional(Type.Intersect([TagNames], { description: 'For tag and untag: the tag names to add to or take off every selected link.' })),
}, { additionalProperties: false });

const BulkResponse = Type.Object({
  matched: Type.Integer({ minimum: 0, description: 'Links the selection named.' }),
  changed: Type.Integer({ minimum: 0, description: 'Links the action changed (deleting a deleted link changes nothing).' }),
  ids: Type.Array(Type.Integer(), { description: 'The ids of the changed links: what an undo names.' }),
});

const ExportBody = Type.Object({
  format: Type.Union([Type.Literal('csv'), Type.Literal('json')], { description: 'csv, or json: Linkforge JSON (a header line, then one link per line), as `linkforge export` writes and every import reads.' }),
  ...SelectionFields,
}, { additionalProperties: false });

const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/x-ndjson; charset=utf-8' } as const;

function selectionOf(body: Pick<Static<typeof BulkBody>, 'ids' | 'matching'>): BulkSelection {
  if ((body.ids === undefined) === (body.matching === undefined)) throw new LinkforgeError('bulk_selection_invalid');
  return body.ids !== undefined ? { ids: body.ids } : { matching: linkMatchOf(body.matching!) };
}

/**
 * App API (JWT): one request acts on many links, each judged as a single request would be; any
 * link refused refuses the whole request and changes nothing.
 */
export function registerBulkLinkRoutes(app: FastifyInstance, owned: OwnedLinkDeps, transfer: LinkTransferDeps, context: RouteContext): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  const common = { tags: ['links'], security: JWT_SECURITY };
  const preHandler = context.guards.requireUser;

  typedApp.post('/api/urls/bulk', {
    preHandler,
    schema: {
      ...common, operationId: 'bulkLinks', summary: 'Delete, restore, move, tag or untag many links at once (all or none)',
      description: 'Links outside your workspaces answer 404; links you may only read (a colleague\'s, for a plain member) answer 403 link_change_not_allowed saying how many. Moving to a workspace that already has one of the URLs is a 409. In every refusal nothing is changed.',
      body: BulkBody,
      response: { 200: BulkResponse, ...errorResponses(400, 401, 403, 404, 409, 413, 503) },
    },
  }, async (request) => {
    const body = request.body;
    const result = await bulkChangeLinks(owned, principalOf(request), { selection: selectionOf(body), action: body.action, targetWorkspaceId: body.workspaceId, tags: body.tags });
    return { matched: result.matched, changed: result.changedIds.length, ids: result.changedIds };
  });

  typedApp.post('/api/urls/export', {
    preHandler,
    schema: {
      ...common, operationId: 'exportLinks', summary: 'Export selected or matching links as CSV or Linkforge JSON',
      body: ExportBody,
      response: {
        200: { description: 'The export file, as an attachment.', content: { 'text/csv': { schema: Type.String() }, 'application/x-ndjson': { schema: Type.String() } } },
        ...errorResponses(400, 401, 404, 413, 503),
      },
    },
  }, async (request, reply) => {
    const { format } = request.body;
    const links = await selectBulkLinks(owned, principalOf(request), selectionOf(request.body), 'read');
    let text = '';
    for await (const chunk of exportText(exportLinks(transfer, { linkIds: links.map((link) => link.id), withVisits: false }), format, false)) text += chunk;
    return reply.type(CONTENT_TYPES[format])
      .header('content-disposition', `attachment; filename="linkforge-links.${format === 'csv' ? 'csv' : 'jsonl'}"`)
      .send(text);
  });
}
