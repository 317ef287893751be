import { parseDestination, type UrlPolicy } from '../core/canonical-url.js';
import { withOption } from '../core/link-options.js';
import { parseLinkPreview } from '../core/link-preview.js';
import { LinkforgeError } from '../core/errors.js';
import type { ImportableLink, ImportCandidate, ImportTarget, LinkTransferStore, TransferTag } from '../core/link-transfer-ports.js';
import { parseTagColour, parseTagNames, tagNameKey } from '../core/tag-rules.js';
import type { Clock, LinkCacheInvalidator } from '../core/ports.js';
import type { Principal } from '../core/principal.js';
import { isReservedWord } from '../core/short-code.js';
import type { WorkspaceAccess } from '../accounts/workspace-access.js';
import { importedOptions } from './routing-options.js';
import { yieldingEvery } from '../core/yielding.js';
import { importedLimits } from './link-limits.js';
import type { KnownHosts } from './domains/known-hosts.js';

export interface ImportLinksDeps {
  readonly transfer: LinkTransferStore;
  /** The verified custom domains: a row's domain must be one of the target workspace's (ADR 0036). */
  readonly hosts: Pick<KnownHosts, 'findOfWorkspace'>;
  readonly cache: LinkCacheInvalidator;
  readonly clock: Clock;
  readonly urlPolicy: UrlPolicy;
}

export interface ImportRejection {
  readonly row: number;
  readonly code: string;
  /** A stable snake_case reason: the API's error codes (`url_scheme_not_allowed`, `code_taken` …) or `row_unreadable`. */
  readonly reason: string;
  readonly detail: string;
}

/** `format` is the name of the file's format, as the reader that read it calls it. */
export interface ImportReport<Format extends string = string> {
  readonly format: Format;
  readonly dryRun: boolean;
  readonly rows: number;
  readonly created: number;
  readonly existing: number;
  readonly rejected: number;
  /** The first MAX_LISTED_REJECTIONS rejected rows; `rejected` counts them all. */
  readonly rejections: readonly ImportRejection[];
}

export interface ImportOptions {
  readonly dryRun?: boolean;
  readonly batchSize?: number;
  /** Called after every batch with the number of rows read so far. */
  readonly onProgress?: (rows: number) => void;
}

export const MAX_LISTED_REJECTIONS = 1000;
const DEFAULT_BATCH_SIZE = 1000;
/** Redirects never wait behind an import for longer than this (rejected rows included). */
export const IMPORT_MAX_BUSY_MS = 4;
const MAX_REPORTED_CODE = 64;
// The redirect path serves 1 to 64 of these characters; the other shorteners' codes are kept even
// when shorter than the 3 a new custom code needs, so that their links keep working.
const IMPORTED_CODE = /^[A-Za-z0-9_-]{1,64}$/;

type Checked = { ok: true; link: ImportableLink } | { ok: false; rejection: ImportRejection };

/** The API's rules, row by row: a row that breaks one is rejected whole, never written in part. */
function checkCandidate(deps: ImportLinksDeps, target: ImportTarget, candidate: ImportCandidate, now: number): Checked {
  // A code too long to be one is cut short in the report, which holds up to MAX_LISTED_REJECTIONS of them.
  const code = candidate.code.length > MAX_REPORTED_CODE ? `${candidate.code.slice(0, MAX_REPORTED_CODE)}…` : candidate.code;
  const reject = (reason: string, detail: string): Checked => ({ ok: false, rejection: { row: candidate.row, code, reason, detail } });
  if (candidate.problem) return reject('row_unreadable', candidate.problem);
  if (candidate.code === '') return reject('code_missing', 'The row has no short code.');
  if (!IMPORTED_CODE.test(candidate.code)) return reject('custom_code_invalid', 'A short code must be 1 to 64 letters, digits, "-" or "_".');
  if (isReservedWord(candidate.code)) return reject('custom_code_reserved', `"${candidate.code}" is a reserved word.`);
  const hostname = candidate.fields.domain?.toLowerCase();
  const domainKey = hostname === undefined ? undefined : deps.hosts.findOfWorkspace(hostname, target.workspaceId)?.key;
  if (hostname !== undefined && domainKey === undefined) {
    return reject('domain_not_verified', `${hostname} is not a verified domain of this workspace: add and verify it, then import again.`);
  }
  let destination;
  try {
    destination = parseDestination(candidate.url, deps.urlPolicy);
  } catch (error) {
    if (error instanceof LinkforgeError) return reject(error.code, error.message);
    throw error;
  }
  const f = candidate.fields;
  let tags;
  let limits;
  let options;
  try {
    tags = importedTags(f.tags);
    limits = importedLimits(f, deps.urlPolicy);
    options = withOption(importedOptions(limits.options, deps.urlPolicy), 'preview', f.options?.preview && parseLinkPreview(f.options.preview, deps.urlPolicy));
  } catch (error) {
    if (error instanceof LinkforgeError) return reject(error.code, error.message);
    throw error;
  }
  const createdAt = f.createdAt ?? now;
  const status = f.status ?? 'ACTIVE';
  const updatedAt = f.updatedAt ?? createdAt;
  return {
    ok: true,
    link: {
      code: candidate.code, ...(domainKey !== undefined && { domain: hostname, domainKey }), ...destination, status, createdAt, updatedAt,
      expiresAt: f.expiresAt ?? null,
      deletedAt: f.deletedAt ?? (status === 'DELETED' ? updatedAt : null),
      redirectCount: f.redirectCount ?? 0, humanCount: f.humanCount ?? 0, botCount: f.botCount ?? 0, previewCount: f.previewCount ?? 0,
      avgRedirectMs: f.avgRedirectMs ?? 0,
      redirectStatus: f.redirectStatus ?? null,
      passwordHash: f.passwordHash ?? null,
      visits: f.visits,
      tags,
      ...limits,
      options,
    },
  };
}

/** A row's tags by the API's rules (ADR 0030): names checked, repeats dropped, at most ten; colours checked. */
function importedTags(tags: readonly TransferTag[] | undefined): TransferTag[] | undefined {
  if (tags === undefined) return undefined;
  const names = parseTagNames(tags.map((tag) => tag.name), 'tags');
  const colours = new Map(tags.filter((tag) => tag.colour !== undefined).map((tag) => [tagNameKey(tag.name.trim()), parseTagColour(tag.colour!, 'tags')]));
  return names.map((name) => ({ name, ...(colours.has(tagNameKey(name)) && { colour: colours.get(tagNameKey(name)) }) }));
}

/**
 * Over the API, importing takes the workspace's owner or admin role (an API key acts as admin):
 * a member gets 403, anyone else the workspace's 404. Checked before the upload is read.
 */
export async function requireImportRole(workspaces: Pick<WorkspaceAccess, 'requireRole'>, principal: Principal, workspaceId: number): Promise<void> {
  await workspaces.requireRole(principal, workspaceId, ['owner', 'admin']);
}

/**
 * Imports links into one workspace, batch by batch (docs/adr/0019). Idempotent:
 * the unique indexes decide, so a second run of the same file reports every row as existing.
 */
export async function importLinks<Format extends string>(
  deps: ImportLinksDeps, target: ImportTarget, source: { format: Format; candidates: AsyncIterable<ImportCandidate> }, options: ImportOptions = {},
): Promise<ImportReport<Format>> {
  const dryRun = options.dryRun ?? false;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const now = deps.clock.now();
  const rejections: ImportRejection[] = [];
  const totals = { rows: 0, created: 0, existing: 0, rejected: 0 };
  const rejectRow = (rejection: ImportRejection) => {
    totals.rejected += 1;
    if (rejections.length < MAX_LISTED_REJECTIONS) rejections.push(rejection);
  };
  let batch: ImportableLink[] = [];
  let rowsOfBatch: number[] = [];
  const flush = async () => {
    const outcomes = await deps.transfer.insertImportedLinks(target, batch, { dryRun, now });
    const created: Promise<void>[] = [];
    outcomes.forEach((outcome, i) => {
      const link = batch[i]!;
      if (outcome.kind === 'created') {
        totals.created += 1;
        // A code someone probed before the import may be cached as unknown: forget it.
        if (!dryRun) created.push(deps.cache.invalidate(link.domainKey ?? target.domain, link.code));
      } else if (outcome.kind === 'existing') {
        totals.existing += 1;
      } else {
        rejectRow({ row: rowsOfBatch[i]!, code: link.code, reason: outcome.reason, detail: outcome.detail });
      }
    });
    await Promise.all(created);
    batch = [];
    rowsOfBatch = [];
    options.onProgress?.(totals.rows);
  };
  for await (const candidate of yieldingEvery(source.candidates, IMPORT_MAX_BUSY_MS)) {
    totals.rows += 1;
    const checked = checkCandidate(deps, target, candidate, now);
    if (!checked.ok) {
      rejectRow(checked.rejection);
      continue;
    }
    batch.push(checked.link);
    rowsOfBatch.push(candidate.row);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return { format: source.format, dryRun, ...totals, rejections };
}
