import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { StatsDeps } from '../../links/get-global-stats.js';
import { DEFAULT_STATS_DAYS, MAX_STATS_BUCKETS } from '../../links/get-link-stats.js';
import { exportLinkVisits, exportWorkspaceVisits, type VisitExport } from '../../links/export-visits.js';
import { csvHeaderLine, VISIT_COLUMNS, visitCsvLines, WORKSPACE_VISIT_COLUMNS } from '../../portability/visits-csv.js';
import { JWT_OR_API_KEY_SECURITY, JWT_SECURITY, principalOf } from '../auth.js';
import { Id } from '../link-fields.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';

const VisitsCsvQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date-time', description: `ISO 8601, inclusive; default: ${DEFAULT_STATS_DAYS} days before the end of today (UTC).` })),
  to: Type.Optional(Type.String({ format: 'date-time', description: `ISO 8601, exclusive; default: the end of today (UTC). At most ${MAX_STATS_BUCKETS.day} days after from, as for the stats.` })),
}, { additionalProperties: false });
type VisitsCsvQuery = Static<typeof VisitsCsvQuery>;

const parseRange = (query: VisitsCsvQuery) => ({
  from: query.from === undefined ? undefined : Date.parse(query.from),
  to: query.to === undefined ? undefined : Date.parse(query.to),
});

const csvResponse = (columns: readonly string[]) => ({
  200: {
    description: `The visits as CSV (RFC 4180, UTF-8, CRLF), a header row first: ${columns.join(', ')}. Times are ISO 8601 UTC; an unknown value is an empty cell; a cell starting with =, +, - or @ gets a leading \`'\` so that no spreadsheet runs it. Sent as an attachment, streamed a page at a time.`,
    content: { 'text/csv': { schema: Type.String() } },
  },
});

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const fileNamePart = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * Streams the export: the first page is read before the headers go, so a database that cannot
 * answer is still a 503; a failure after that cuts the download short (the client sees an
 * incomplete transfer, never a complete-looking file).
 */
async function sendCsv(reply: FastifyReply, fileName: string, columns: readonly string[], exported: VisitExport, withLink: boolean) {
  const { pages } = exported;
  const first = await pages.next();
  async function* lines() {
    yield csvHeaderLine(columns);
    for (let page = first; !page.done; page = await pages.next()) yield visitCsvLines(withLink ? page.value.link : undefined, page.value.visits);
  }
  return reply.type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines(), { objectMode: false }));
}

/** ADR 0029: a link's or a workspace's raw visits as CSV, for whoever may read their stats. */
export function registerVisitExportRoutes(app: FastifyInstance, statsDeps: StatsDeps, context: RouteContext): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  typedApp.get('/api/urls/:id/visits.csv', {
    preHandler: context.guards.requireUser,
    schema: {
      tags: ['links'], security: JWT_SECURITY, operationId: 'exportLinkVisits',
      summary: 'One link\'s visits as CSV: time, class, country, city, referrer host, browser, OS, device, the route or variant that served it (never an address)',
      params: Type.Object({ id: Id }), querystring: VisitsCsvQuery,
      response: { ...csvResponse(VISIT_COLUMNS), ...errorResponses(400, 401, 404, 503) },
    },
  }, async (request, reply) => {
    const exported = await exportLinkVisits(statsDeps, principalOf(request), request.params, parseRange(request.query));
    const name = `linkforge-visits-${fileNamePart(exported.link.code)}-${day(exported.from)}-to-${day(exported.to - 1)}.csv`;
    return sendCsv(reply, name, VISIT_COLUMNS, exported, false);
  });

  typedApp.get('/api/v1/workspaces/:id/visits.csv', {
    preHandler: context.guards.requireUserOrApiKey,
    config: { apiKeyScope: 'stats:read' },
    schema: {
      tags: ['workspaces'], security: JWT_OR_API_KEY_SECURITY, operationId: 'exportWorkspaceVisits',
      summary: 'Every visit of the workspace\'s links as CSV, link by link, with each link\'s id and code',
      params: Type.Object({ id: Id }), querystring: VisitsCsvQuery,
      response: { ...csvResponse(WORKSPACE_VISIT_COLUMNS), ...errorResponses(400, 401, 404, 503) },
    },
  }, async (request, reply) => {
    const workspaceId = request.params.id;
    const exported = await exportWorkspaceVisits(statsDeps, principalOf(request), workspaceId, parseRange(request.query));
    const name = `linkforge-workspace-${workspaceId}-visits-${day(exported.from)}-to-${day(exported.to - 1)}.csv`;
    return sendCsv(reply, name, WORKSPACE_VISIT_COLUMNS, exported, true);
  });
}
