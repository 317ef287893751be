import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { LinkforgeError } from '../../core/errors.js';
import type { AppDeps } from '../../deps.js';
import { importLinks, requireImportRole, type ImportReport } from '../../links/import-links.js';
import { IMPORT_FORMATS, ImportFormatError, type ImportFormat } from '../../portability/import-candidate.js';
import { readImport } from '../../portability/read-import.js';
import { JWT_OR_API_KEY_SECURITY, principalOf, requireUserOrApiKey } from '../auth.js';
import { errorResponses } from '../schemas.js';
import { createValidatorCompiler } from '../validation.js';

const ReportJson = Type.Object({
  format: Type.Union(IMPORT_FORMATS.map((f) => Type.Literal(f))),
  dry_run: Type.Boolean(),
  rows: Type.Integer({ description: 'Data rows read.' }),
  created: Type.Integer(),
  existing: Type.Integer({ description: 'Rows whose code this workspace already holds for the same URL: an import run twice creates nothing.' }),
  rejected: Type.Integer(),
  rejections: Type.Array(Type.Object({
    row: Type.Integer(), code: Type.String(),
    reason: Type.String({ description: 'The API\'s error code for the rule the row breaks (`url_scheme_not_allowed`, `code_taken` …), or `row_unreadable`.' }),
    detail: Type.String(),
  }), { description: 'The first 1000 rejected rows.' }),
});

const reportToJson = (r: ImportReport) => ({
  format: r.format, dry_run: r.dryRun, rows: r.rows, created: r.created, existing: r.existing, rejected: r.rejected, rejections: r.rejections,
});

/**
 * The upload is written to a temporary file before a row is read: a file over the limit is refused
 * (413) before anything was imported, and the import itself streams from disk, never from memory.
 */
async function spoolUpload(stream: NodeJS.ReadableStream & { truncated?: boolean }): Promise<{ file: string; remove(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-import-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  const file = path.join(dir, 'upload');
  try {
    await pipeline(stream, fs.createWriteStream(file));
  } catch (error) {
    remove();
    throw error;
  }
  // Past the limit busboy stops the stream early and marks it truncated: the file is not whole.
  if (stream.truncated) {
    remove();
    throw new LinkforgeError('body_too_large', 'The file is larger than IMPORT_MAX_BYTES allows.');
  }
  return { file, remove };
}

/** `POST /api/v1/workspaces/{id}/imports`: the CLI's `linkforge import`, for a workspace's owners and admins. */
export function registerImportRoutes(app: FastifyInstance, deps: AppDeps): void {
  const compile = createValidatorCompiler();
  // Multipart is parsed in this scope only: everywhere else the API still answers it 415.
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: deps.config.links.importMaxBytes, files: 1, fields: 0, parts: 1 } });
    scope.post('/api/v1/workspaces/:id/imports', {
      preHandler: requireUserOrApiKey(deps),
      // The body is a stream read by the handler; its schema is there to document it.
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : compile(route)),
      schema: {
        tags: ['workspaces'], security: JWT_OR_API_KEY_SECURITY, operationId: 'importLinks',
        summary: 'Import links from a Linkforge, Bitly, Shlink, Kutt or YOURLS export (owners and admins)',
        description: 'Each row keeps its short code. Idempotent: rows already imported are reported as `existing`. A row that breaks a rule of the API is rejected whole, with its reason. `dry_run=true` reports without writing.',
        consumes: ['multipart/form-data'],
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        querystring: Type.Object({
          format: Type.Optional(Type.Union(IMPORT_FORMATS.map((f) => Type.Literal(f)), { description: 'Forces the format; detected from the file by default.' })),
          dry_run: Type.Optional(Type.Boolean({ default: false })),
        }, { additionalProperties: false }),
        body: Type.Object({ file: Type.String({ format: 'binary', description: 'The export file (CSV or JSON).' }) }, { required: ['file'] }),
        response: { 200: ReportJson, ...errorResponses(400, 401, 403, 404, 413, 415, 503) },
      },
    }, async (request) => {
      const { id } = request.params as { id: number };
      const query = request.query as { format?: ImportFormat; dry_run?: boolean };
      const principal = principalOf(request);
      await requireImportRole(deps.workspaces, principal, id);
      if (!request.isMultipart()) throw new LinkforgeError('media_type_unsupported', 'Send the export as multipart/form-data, in a part named "file".');
      const part = await request.file();
      if (part === undefined || part.fieldname !== 'file') throw new LinkforgeError('import_file_missing');
      const upload = await spoolUpload(part.file);
      try {
        const source = await readImport(fs.createReadStream(upload.file), query.format);
        const report = await importLinks(deps.transfer, { domain: deps.transfer.domain, workspaceId: id, ownerId: principal.userId }, source, { dryRun: query.dry_run });
        return reportToJson(report);
      } catch (error) {
        throw error instanceof ImportFormatError ? new LinkforgeError('import_format_invalid', error.message) : error;
      } finally {
        upload.remove();
      }
    });
  });
}
