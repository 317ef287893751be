import type { VisitorClass } from '../core/analytics-ports.js';
import type { LinkStatus } from '../core/link.js';
import type { TransferLink, TransferVisit } from '../core/link-transfer-ports.js';
import type { ImportCandidate } from './import-candidate.js';
import { headerKey, parseCount, parseNumber, parseTime } from './parse-fields.js';

/**
 * Linkforge's own export, version 1 (docs/adr/0019): the same snake_case fields in CSV (one link
 * per row, visits as a JSON array in their own column) and in JSON Lines (a header line, then one
 * link per line). Times are ISO 8601 with milliseconds, so that nothing is rounded on the way.
 */
export const LINKFORGE_COLUMNS = [
  'code', 'url', 'status', 'created_at', 'updated_at', 'expires_at', 'deleted_at',
  'redirect_count', 'human_count', 'bot_count', 'preview_count', 'avg_redirect_ms',
] as const;
export const VISITS_COLUMN = 'visits';
export const LINKFORGE_JSON_HEADER = { format: 'linkforge', version: 1 } as const;

type Column = (typeof LINKFORGE_COLUMNS)[number];
export type LinkforgeRecord = Record<Column, string> & { visits?: string };

interface VisitJson {
  visited_at: string;
  visitor_class: VisitorClass;
  latency_ms: number;
  referrer_host: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());
const STATUSES: readonly LinkStatus[] = ['ACTIVE', 'EXPIRED', 'DELETED'];
const VISITOR_CLASSES: readonly VisitorClass[] = ['human', 'bot', 'preview'];

const visitToJson = (v: TransferVisit): VisitJson => ({
  visited_at: iso(v.visitedAt), visitor_class: v.visitorClass, latency_ms: v.latencyMs,
  referrer_host: v.referrerHost, browser: v.browser, os: v.os, device: v.device,
});

/** The link as one CSV row or JSON line; visits only when asked for. */
export function linkforgeRecordOf(link: TransferLink, withVisits: boolean): LinkforgeRecord {
  const record: LinkforgeRecord = {
    code: link.code, url: link.originalUrl, status: link.status,
    created_at: iso(link.createdAt), updated_at: iso(link.updatedAt), expires_at: iso(link.expiresAt), deleted_at: iso(link.deletedAt),
    redirect_count: String(link.redirectCount), human_count: String(link.humanCount), bot_count: String(link.botCount),
    preview_count: String(link.previewCount), avg_redirect_ms: String(link.avgRedirectMs),
  };
  if (withVisits) record.visits = JSON.stringify((link.visits ?? []).map(visitToJson));
  return record;
}

function textOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  return typeof value === 'string' ? value : String(value);
}

function parseVisits(value: unknown): TransferVisit[] | undefined {
  if (value === undefined || value === '') return undefined;
  const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(list)) throw new Error('The visits are not a list.');
  return list.map((item: Partial<VisitJson>) => {
    if (!VISITOR_CLASSES.includes(item.visitor_class as VisitorClass)) throw new Error(`A visit has the unknown class "${item.visitor_class}".`);
    return {
      visitedAt: parseTime(item.visited_at, 'visit time') ?? (() => { throw new Error('A visit has no time.'); })(),
      visitorClass: item.visitor_class as VisitorClass,
      latencyMs: parseNumber(textOf(item.latency_ms), 'visit latency') ?? 0,
      referrerHost: item.referrer_host ?? null, browser: item.browser ?? null, os: item.os ?? null, device: item.device ?? null,
    };
  });
}

/** Reads one row of either variant (CSV cells are text, JSON values may be numbers or null). */
export function candidateOfLinkforgeRecord(row: number, fields: Record<string, unknown>): ImportCandidate {
  // CSV headers arrive as headerKey() spells them (`createdat`), JSON keys as written (`created_at`): one spelling.
  const record = Object.fromEntries(Object.entries(fields).map(([name, value]) => [headerKey(name), value]));
  const code = textOf(record.code) ?? '';
  const url = textOf(record.url) ?? '';
  try {
    const status = textOf(record.status)?.toUpperCase() || undefined;
    if (status !== undefined && !STATUSES.includes(status as LinkStatus)) throw new Error(`The status "${status}" is not ACTIVE, EXPIRED or DELETED.`);
    return {
      row, code, url,
      fields: {
        status: status as LinkStatus | undefined,
        createdAt: parseTime(textOf(record.createdat), 'creation time'),
        updatedAt: parseTime(textOf(record.updatedat), 'update time'),
        expiresAt: parseTime(textOf(record.expiresat), 'expiry') ?? null,
        deletedAt: parseTime(textOf(record.deletedat), 'deletion time') ?? null,
        redirectCount: parseCount(textOf(record.redirectcount), 'redirect count'),
        humanCount: parseCount(textOf(record.humancount), 'human count'),
        botCount: parseCount(textOf(record.botcount), 'bot count'),
        previewCount: parseCount(textOf(record.previewcount), 'preview count'),
        avgRedirectMs: parseNumber(textOf(record.avgredirectms), 'average latency'),
        visits: parseVisits(record.visits),
      },
    };
  } catch (error) {
    return { row, code, url, fields: {}, problem: (error as Error).message };
  }
}
