import type { VisitorClass } from '../core/visit-ports.js';
import { LINK_REDIRECT_STATUSES, type LinkRedirectStatus, type LinkStatus } from '../core/link.js';
import type { TransferLink, TransferTag, TransferVisit } from '../core/link-transfer-ports.js';
import type { ImportCandidate } from './import-candidate.js';
import { previewCellOf, previewOptionsOf } from './preview-column.js';
import { CLICK_LIMIT_COLUMNS, clickLimitCellsOf, clickLimitFieldsOf } from './click-limit-columns.js';
import { ROUTING_COLUMNS, routingCellsOf, routingOptionsOf } from './routing-columns.js';
import { confirmOptionOf, passwordHashOf } from './link-gate-fields.js';
import { headerKey, MAX_LATENCY_MS, parseCount, parseNumber, parseTime, quoted } from './parse-fields.js';
import { mergedOptions } from '../core/link-options.js';

/**
 * Linkforge's own export, version 1 (docs/adr/0019): the same snake_case fields in CSV (one link
 * per row, visits as a JSON array in their own column) and in JSON Lines (a header line, then one
 * link per line). Times are ISO 8601 with milliseconds, so that nothing is rounded on the way.
 */
export const LINKFORGE_COLUMNS = [
  'code', 'url', 'status', 'created_at', 'updated_at', 'expires_at', 'deleted_at',
  'redirect_count', 'human_count', 'bot_count', 'preview_count', 'avg_redirect_ms', 'tags', 'redirect_status', 'preview',
  ...CLICK_LIMIT_COLUMNS, ...ROUTING_COLUMNS, 'password_hash', 'confirm_before_redirect', 'domain',
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
  /** Written since the country of a visit is known; absent in older files. */
  country?: string | null;
  /** Written since the region and city of a visit are known (ADR 0027); absent in older files. */
  region?: string | null;
  city?: string | null;
}

/** What the live path records (visits/visit-classifier.ts): ua-parser names, and a closed list of devices. */
const VISIT_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._+\-/()!:,]{0,63}$/;
const DEVICES: readonly string[] = ['desktop', 'mobile', 'tablet', 'other', 'bot'];
const MAX_HOSTNAME_LENGTH = 253;
const COUNTRY_CODE = /^[A-Z]{2}$/;
/** A region or city as geo/country-database.ts stores it: no control characters, no spaces around, 100 characters at most. */
const PLACE_NAME = /^(?![\s])[^\p{Cc}\p{Cf}]{1,100}(?<![\s])$/u;

/** Cells a spreadsheet would evaluate as a formula (OWASP's CSV injection list), after any quotes we added. */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEUTRALISED = /^'+[=+\-@\t\r]/;

/**
 * A CSV cell a spreadsheet would run as a formula gets a leading `'`, OWASP's advice. A cell that
 * already starts with quotes before such a character gets one more, so that restoreCell can
 * always take exactly one off and the round trip gives back every byte.
 */
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function restoreCell(text: string): string {
  return NEUTRALISED.test(text) ? text.slice(1) : text;
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());
const STATUSES: readonly LinkStatus[] = ['ACTIVE', 'EXPIRED', 'DELETED'];
const VISITOR_CLASSES: readonly VisitorClass[] = ['human', 'bot', 'preview'];

const visitToJson = (v: TransferVisit): VisitJson => ({
  visited_at: iso(v.visitedAt), visitor_class: v.visitorClass, latency_ms: v.latencyMs,
  referrer_host: v.referrerHost, browser: v.browser, os: v.os, device: v.device, country: v.country ?? null, region: v.region ?? null, city: v.city ?? null,
});

/** The link as one CSV row or JSON line; visits only when asked for. */
export function linkforgeRecordOf(link: TransferLink, withVisits: boolean): LinkforgeRecord {
  const record: LinkforgeRecord = {
    code: link.code, url: link.originalUrl, status: link.status,
    created_at: iso(link.createdAt), updated_at: iso(link.updatedAt), expires_at: iso(link.expiresAt), deleted_at: iso(link.deletedAt),
    redirect_count: String(link.redirectCount), human_count: String(link.humanCount), bot_count: String(link.botCount),
    preview_count: String(link.previewCount), avg_redirect_ms: String(link.avgRedirectMs),
    tags: link.tags?.length ? JSON.stringify(link.tags) : '',
    redirect_status: link.redirectStatus === null || link.redirectStatus === undefined ? '' : String(link.redirectStatus),
    preview: previewCellOf(link.options),
    ...clickLimitCellsOf(link),
    ...routingCellsOf(link.options),
    password_hash: link.passwordHash ?? '',
    confirm_before_redirect: link.options?.confirmBeforeRedirect === true ? 'true' : '',
    domain: link.domain ?? '',
  };
  if (withVisits) record.visits = JSON.stringify((link.visits ?? []).map(visitToJson));
  return record;
}

/** A link's own redirect status; empty or absent (files from before it was exported): the instance's rule. */
function redirectStatusOf(text: string | undefined): LinkRedirectStatus | null {
  const value = text?.trim() ?? '';
  if (value === '') return null;
  const status = Number(value) as LinkRedirectStatus;
  if (!LINK_REDIRECT_STATUSES.includes(status)) throw new Error(`The redirect status ${quoted(value)} is not 301, 302, 307 or 308.`);
  return status;
}

function textOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  return typeof value === 'string' ? value : String(value);
}

/** A referrer host as the live path keeps it: a host name a URL would give back unchanged, at most 253 characters. */
function referrerHostOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const host = String(value);
  let parsed = '';
  try {
    parsed = new URL(`http://${host}/`).hostname;
  } catch { /* not a host: refused below */ }
  if (host.length > MAX_HOSTNAME_LENGTH || parsed !== host) throw new Error(`A visit's referrer host ${quoted(host)} is not a host name.`);
  return host;
}

function visitNameOf(value: unknown, what: string, allowed: (text: string) => boolean): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  if (!allowed(text)) throw new Error(`A visit's ${what} ${quoted(text)} is not one the service records.`);
  return text;
}

function parseVisits(value: unknown): TransferVisit[] | undefined {
  if (value === undefined || value === '') return undefined;
  const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(list)) throw new Error('The visits are not a list.');
  return list.map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) throw new Error('A visit is not a JSON object.');
    const item = entry as Partial<VisitJson>;
    if (!VISITOR_CLASSES.includes(item.visitor_class as VisitorClass)) throw new Error(`A visit has the unknown class ${quoted(String(item.visitor_class))}.`);
    const isName = (text: string) => VISIT_NAME.test(text);
    return {
      visitedAt: parseTime(textOf(item.visited_at), 'visit time') ?? (() => { throw new Error('A visit has no time.'); })(),
      visitorClass: item.visitor_class as VisitorClass,
      latencyMs: parseNumber(textOf(item.latency_ms), 'visit latency', MAX_LATENCY_MS) ?? 0,
      referrerHost: referrerHostOf(item.referrer_host),
      browser: visitNameOf(item.browser, 'browser', isName),
      os: visitNameOf(item.os, 'operating system', isName),
      device: visitNameOf(item.device, 'device', (text) => DEVICES.includes(text)),
      country: visitNameOf(item.country, 'country', (text) => COUNTRY_CODE.test(text)),
      region: visitNameOf(item.region, 'region', (text) => PLACE_NAME.test(text)),
      city: visitNameOf(item.city, 'city', (text) => PLACE_NAME.test(text)),
    };
  });
}

/**
 * A link's tags (ADR 0030): in our exports a list of `{name, colour}` (JSON text in CSV); a list
 * of names, or names separated by commas, is read too, for files made by hand. Absent in files
 * older than tags.
 */
export function parseTransferTags(value: unknown): TransferTag[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = typeof value === 'string' ? value.trim() : undefined;
  const list: unknown = text === undefined ? value : text.startsWith('[') ? JSON.parse(text) : text.split(',').filter((name) => name.trim() !== '');
  if (!Array.isArray(list)) throw new Error('The tags are not a list.');
  return list.map((entry: unknown) => {
    if (typeof entry === 'string') return { name: entry };
    const tag = entry as Partial<TransferTag> | null;
    if (typeof tag?.name !== 'string' || (tag.colour !== undefined && typeof tag.colour !== 'string')) throw new Error('A tag is not a name or a {name, colour} object.');
    return { name: tag.name, ...(tag.colour !== undefined && { colour: tag.colour }) };
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
    if (status !== undefined && !STATUSES.includes(status as LinkStatus)) throw new Error(`The status ${quoted(status)} is not ACTIVE, EXPIRED or DELETED.`);
    const limits = clickLimitFieldsOf(record, textOf);
    return {
      row, code, url,
      fields: {
        // Empty or absent (files from before custom domains): the default short domain.
        domain: textOf(record.domain) || undefined,
        status: status as LinkStatus | undefined,
        createdAt: parseTime(textOf(record.createdat), 'creation time'),
        updatedAt: parseTime(textOf(record.updatedat), 'update time'),
        expiresAt: parseTime(textOf(record.expiresat), 'expiry') ?? null,
        deletedAt: parseTime(textOf(record.deletedat), 'deletion time') ?? null,
        redirectCount: parseCount(textOf(record.redirectcount), 'redirect count'),
        humanCount: parseCount(textOf(record.humancount), 'human count'),
        botCount: parseCount(textOf(record.botcount), 'bot count'),
        previewCount: parseCount(textOf(record.previewcount), 'preview count'),
        avgRedirectMs: parseNumber(textOf(record.avgredirectms), 'average latency', MAX_LATENCY_MS),
        redirectStatus: redirectStatusOf(textOf(record.redirectstatus)),
        visits: parseVisits(record.visits),
        tags: parseTransferTags(record.tags),
        ...limits,
        passwordHash: passwordHashOf(textOf(record.passwordhash)),
        options: mergedOptions(limits.options, previewOptionsOf(record.preview), routingOptionsOf(record.routes, record.variants), confirmOptionOf(record.confirmbeforeredirect)),
      },
    };
  } catch (error) {
    return { row, code, url, fields: {}, problem: (error as Error).message };
  }
}
