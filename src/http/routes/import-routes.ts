import fs from 'node:fs';
import path from 'node:path';
import multipart, { type MultipartFile } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LinkforgeError } from '../../core/errors.js';
import type { Config } from '../../config.js';
import { IMPORT_MAX_BUSY_MS, importLinks, requireImportRole, type ImportReport } from '../../links/import-links.js';
import type { LinkTransferDeps } from '../../links/link-services.js';
import { IMPORT_FORMATS, ImportFormatError, type ImportFormat } from '../../portability/import-candidate.js';
import { ImportEncodingError, ImportLimitError, type ImportLimits } from '../../portability/import-limits.js';
import { readImport } from '../../portability/read-import.js';
import { yieldingEvery } from '../../core/yielding.js';
import type { ConnectionDrain } from '../connection-drain.js';
import { JWT_OR_API_KEY_SECURITY, principalOf } from '../auth.js';
import type { RouteContext } from '../route-context.js';
import { ImportAdmission } from './import-admission.js';
import { ImportSpool, type SpoolFile } from './import-spool.js';
import { unlessAborted, watchUploadIdle } from './upload-idle-watch.js';
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

const reportToJson = (r: ImportReport<ImportFormat>) => ({
  format: r.format, dry_run: r.dryRun, rows: r.rows, created: r.created, existing: r.existing, rejected: r.rejected, rejections: [...r.rejections],
});

const SPOOL_DIRECTORY = 'import-spool';
const IMPORT_RETRY_AFTER_SECONDS = 10;
// Small reads keep each synchronous parsing step short (docs/adr/0019: redirects never wait long).
const READ_CHUNK_BYTES = 16 * 1024;

/** The upload's one file part, spooled; every way the body can be malformed ends as a problem. */
async function receiveFile(parts: AsyncIterableIterator<MultipartFile>, spool: ImportSpool, signal: AbortSignal): Promise<SpoolFile> {
  try {
    const first = await unlessAborted(parts.next(), signal);
    const part = first.done ? undefined : first.value;
    if (part === undefined || part.fieldname !== 'file') throw new LinkforgeError('import_file_missing');
    // A body cut short is reported to the parts iterator only, or by a file stream destroyed
    // before it ended: either way the stream alone would leave the upload waiting forever.
    if (part.file.destroyed && !part.file.readableEnded) throw new LinkforgeError('multipart_invalid', 'The body ended before its file part did.');
    void parts.next().then(() => undefined, (error: unknown) => part.file.destroy(error as Error));
    return await spool.write(part.file, signal);
  } catch (error) {
    throw uploadProblem(error);
  }
}

/** Why an upload could not be read, as a problem: the client's fault is a 4xx, a full disk a 503. */
function uploadProblem(error: unknown): LinkforgeError {
  if (error instanceof LinkforgeError) return error;
  const { code, name, syscall, message, cause } = error as { code?: string; name?: string; syscall?: string; message?: string; cause?: unknown };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new LinkforgeError('body_too_large', 'The file is larger than IMPORT_MAX_BYTES allows.');
  if (name === 'AbortError') return cause instanceof LinkforgeError ? cause : new LinkforgeError('server_shutting_down');
  if (syscall !== undefined) return new LinkforgeError('import_spool_unavailable');
  return new LinkforgeError('multipart_invalid', `The multipart/form-data body could not be read: ${message ?? 'unknown error'}.`);
}

function importProblem(error: unknown): unknown {
  if (error instanceof ImportFormatError) return new LinkforgeError('import_format_invalid', error.message);
  if (error instanceof ImportLimitError) return new LinkforgeError('import_too_large', `${error.message} Nothing was imported.`);
  if (error instanceof ImportEncodingError) return new LinkforgeError('import_not_utf8', error.message);
  return error;
}

/** `POST /api/v1/workspaces/{id}/imports`: the CLI's `linkforge import`, for a workspace's owners and admins. */
/** The bounds of one import (IMPORT_*), the largest upload, and the data directory its spool lives in. */
export interface ImportRouteSettings {
  readonly imports: Config['imports'];
  readonly maxUploadBytes: number;
  readonly dataDir: string;
}

/** What one import needs beyond its request: the services, the bounds, and the server's shutdown. */
interface ImportRun {
  readonly transfer: LinkTransferDeps;
  readonly limits: ImportLimits;
  readonly admission: ImportAdmission;
  readonly spool: ImportSpool;
  readonly uploadIdleTimeoutMs: number;
  readonly shutdown: AbortSignal;
}

export function registerImportRoutes(
  app: FastifyInstance, transfer: LinkTransferDeps, settings: ImportRouteSettings, context: RouteContext, drain: ConnectionDrain,
): void {
  const compile = createValidatorCompiler();
  const { imports } = settings;
  const limits: ImportLimits = { maxRows: imports.maxRows, maxFields: imports.maxFields, maxRowBytes: imports.maxRowBytes };
  const admission = new ImportAdmission(imports.maxRunning, imports.maxRunningPerUser);
  const spool = new ImportSpool(path.join(settings.dataDir, SPOOL_DIRECTORY));
  spool.reset();
  const shutdown = new AbortController();
  const shuttingDown = new LinkforgeError('server_shutting_down');
  const run: ImportRun = { transfer, limits, admission, spool, uploadIdleTimeoutMs: imports.uploadIdleTimeoutMs, shutdown: shutdown.signal };
  // Multipart is parsed in this scope only: everywhere else the API still answers it 415.
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: settings.maxUploadBytes, files: 1, fields: 0, parts: 1 } });
    // An upload or import in progress would hold shutdown until its deadline: it is ended (503) as
    // soon as draining starts, or at the latest when the app closes.
    drain.onDrain(() => shutdown.abort(shuttingDown));
    scope.addHook('preClose', async () => shutdown.abort(shuttingDown));
    // An answer given before the body was read whole (413, 429, a stalled upload) closes the
    // connection, so that the rest of the body is not read just to be thrown away.
    scope.addHook('onSend', async (request, reply) => {
      if (!request.raw.complete) reply.header('connection', 'close');
    });
    scope.withTypeProvider<TypeBoxTypeProvider>().post('/api/v1/workspaces/:id/imports', {
      preHandler: context.guards.requireUserOrApiKey,
      config: {
        apiKeyScope: 'links:write',
        rateLimitPolicy: 'import',
        rateLimit: imports.perMinute > 0
          ? { max: imports.perMinute, timeWindow: 60_000, hook: 'preHandler', keyGenerator: (request) => `import:${principalOf(request).userId}` }
          : false,
      },
      // The body is a stream read by the handler; its schema is there to document it.
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : compile(route)),
      schema: importSchema(),
    }, async (request, reply) => handleImport(request, reply, { workspaceId: request.params.id, format: request.query.format, dryRun: request.query.dry_run }, run));
  });
}

/** The import route's OpenAPI schema; its body documents the multipart upload. */
function importSchema() {
  return {
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
    response: { 200: ReportJson, ...errorResponses(400, 401, 403, 404, 408, 413, 415, 429, 503) },
  };
}

interface ImportRequest {
  readonly workspaceId: number;
  readonly format: ImportFormat | undefined;
  readonly dryRun: boolean | undefined;
}

/** One import: the caller's role, a place among the running imports, the upload spooled, then read and imported. */
async function handleImport(request: FastifyRequest, reply: FastifyReply, input: ImportRequest, run: ImportRun) {
  const { transfer, limits, admission, spool } = run;
  const id = input.workspaceId;
  const principal = principalOf(request);
  await requireImportRole(transfer.workspaces, principal, id);
  if (!request.isMultipart()) throw new LinkforgeError('media_type_unsupported', 'Send the export as multipart/form-data, in a part named "file".');
  let release: () => void;
  try {
    release = admission.admit(principal.userId);
  } catch (error) {
    reply.header('retry-after', String(IMPORT_RETRY_AFTER_SECONDS));
    throw error;
  }
  try {
    const parts = request.files();
    // The client hanging up, stalling, or the server shutting down ends the upload and the import where they are.
    const idle = watchUploadIdle(request.raw, run.uploadIdleTimeoutMs);
    const clientGone = new AbortController();
    reply.raw.once('close', () => { if (!reply.raw.writableFinished) clientGone.abort(new LinkforgeError('request_invalid', 'The client closed the connection before the answer.')); });
    const signal = AbortSignal.any([run.shutdown, clientGone.signal]);
    const upload = await receiveFile(parts, spool, AbortSignal.any([signal, idle.signal])).finally(() => idle.stop());
    reply.raw.once('close', upload.remove);
    // Opened before anything else can remove the file (the response closing on a client abort).
    const open = () => fs.createReadStream('', { fd: fs.openSync(upload.path, 'r'), highWaterMark: READ_CHUNK_BYTES });
    const [scan, read] = [open(), open()];
    try {
      // The whole file is read once before anything is written, so that a file breaking a
      // limit, or not UTF-8, or cut short, is refused with nothing imported.
      const checked = await readImport(scan, limits, input.format);
      for await (const candidate of yieldingEvery(checked.candidates, IMPORT_MAX_BUSY_MS, signal)) void candidate;
      const source = await readImport(read, limits, input.format);
      const stoppable = { format: source.format, candidates: yieldingEvery(source.candidates, IMPORT_MAX_BUSY_MS, signal) };
      const report = await importLinks(transfer, { domain: transfer.domain, workspaceId: id, ownerId: principal.userId }, stoppable, { dryRun: input.dryRun });
      return reportToJson(report);
    } catch (error) {
      throw importProblem(error);
    } finally {
      scan.destroy();
      read.destroy();
      upload.remove();
    }
  } finally {
    release();
  }
}
