import { parseDestination, type UrlPolicy } from './canonical-url.js';
import type { CodeWithStatus } from './error-codes.js';
import { ValidationError } from './errors.js';
import { regionName } from './region-names.js';
import { ROUTE_DEVICES, type LinkRoute, type LinkVariant, type RouteDevice } from './link-options.js';

export const MAX_ROUTES = 10;
export const MAX_VARIANTS = 10;
export const MIN_VARIANTS = 2;
/** Values one condition of a route may list: every country of a continent fits. */
export const MAX_CONDITION_VALUES = 60;
export const MAX_VARIANT_WEIGHT = 1000;

const ROUTE_KEYS = new Set(['country', 'device', 'language', 'url']);
const VARIANT_KEYS = new Set(['url', 'weight']);
const COUNTRY = /^[A-Za-z]{2}$/;
const LANGUAGE = /^[A-Za-z]{2,3}$/;

/** The routes of a link, checked and in their stored form; `null` or `[]` is none (undefined when absent). */
export function parseRoutes(raw: unknown, policy: UrlPolicy, field = 'routes'): LinkRoute[] | null | undefined {
  if (raw === undefined) return undefined;
  const list = listOf(raw, field, 'routes_invalid', MAX_ROUTES);
  return list.length === 0 ? null : list.map((item, index) => parseRoute(item, policy, `${field}[${index}]`));
}

/** The variants of a link's A/B split, checked; `null` or `[]` is none (undefined when absent). */
export function parseVariants(raw: unknown, policy: UrlPolicy, field = 'variants'): LinkVariant[] | null | undefined {
  if (raw === undefined) return undefined;
  const list = listOf(raw, field, 'variants_invalid', MAX_VARIANTS);
  if (list.length === 0) return null;
  if (list.length < MIN_VARIANTS) throw new ValidationError('variants_invalid', `${field}: an A/B split needs at least ${MIN_VARIANTS} variants.`, { field });
  return list.map((item, index) => parseVariant(item, policy, `${field}[${index}]`));
}

function parseRoute(raw: unknown, policy: UrlPolicy, field: string): LinkRoute {
  const item = objectOf(raw, field, ROUTE_KEYS, 'routes_invalid');
  const country = conditionOf(item.country, `${field}.country`, (value) => {
    const code = value.toUpperCase();
    return COUNTRY.test(value) && regionName(code) !== undefined ? code : undefined;
  }, 'an ISO 3166-1 alpha-2 country code such as DE');
  const device = conditionOf(item.device, `${field}.device`, (value) => {
    const name = value.toLowerCase() as RouteDevice;
    return ROUTE_DEVICES.includes(name) ? name : undefined;
  }, `one of ${ROUTE_DEVICES.join(', ')}`);
  const language = conditionOf(item.language, `${field}.language`, (value) => (LANGUAGE.test(value) ? value.toLowerCase() : undefined),
    'a primary language subtag of 2 or 3 letters such as de');
  if (country === undefined && device === undefined && language === undefined) {
    throw new ValidationError('routes_invalid', `${field}: a route names at least one condition (country, device or language).`, { field });
  }
  return { ...(country && { country }), ...(device && { device }), ...(language && { language }), url: urlOf(item.url, policy, `${field}.url`) };
}

function parseVariant(raw: unknown, policy: UrlPolicy, field: string): LinkVariant {
  const item = objectOf(raw, field, VARIANT_KEYS, 'variants_invalid');
  const weight = item.weight;
  if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 1 || weight > MAX_VARIANT_WEIGHT) {
    throw new ValidationError('variants_invalid', `${field}.weight: a weight is a whole number from 1 to ${MAX_VARIANT_WEIGHT}.`, { field: `${field}.weight` });
  }
  return { url: urlOf(item.url, policy, `${field}.url`), weight };
}

/** The same rules as the link's own destination (scheme, private addresses, blocklist, self-loop), with the field named. */
function urlOf(raw: unknown, policy: UrlPolicy, field: string): string {
  try {
    return parseDestination(raw, policy).originalUrl;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(error.code as CodeWithStatus<400>, `${field}: ${error.message}`, { ...error.extra, field });
  }
}

function listOf(raw: unknown, field: string, code: 'routes_invalid' | 'variants_invalid', max: number): unknown[] {
  if (raw === null) return [];
  if (!Array.isArray(raw)) throw new ValidationError(code, `${field}: give a list, or null for none.`, { field });
  if (raw.length > max) throw new ValidationError(code, `${field}: at most ${max}, not ${raw.length}.`, { field });
  return raw;
}

function objectOf(raw: unknown, field: string, keys: ReadonlySet<string>, code: 'routes_invalid' | 'variants_invalid'): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ValidationError(code, `${field}: give an object.`, { field });
  const unknown = Object.keys(raw).find((key) => !keys.has(key));
  if (unknown !== undefined) throw new ValidationError(code, `${field}: unknown field "${unknown.slice(0, 40)}".`, { field: `${field}.${unknown.slice(0, 40)}` });
  return raw as Record<string, unknown>;
}

/** A condition's values, checked and made canonical by `read`, without repeats; undefined when absent. */
function conditionOf<T extends string>(raw: unknown, field: string, read: (value: string) => T | undefined, expected: string): T[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_CONDITION_VALUES) {
    throw new ValidationError('routes_invalid', `${field}: give a list of 1 to ${MAX_CONDITION_VALUES} values.`, { field });
  }
  const values = raw.map((value, index) => {
    const canonical = typeof value === 'string' ? read(value.trim()) : undefined;
    if (canonical === undefined) throw new ValidationError('routes_invalid', `${field}[${index}]: "${String(value).slice(0, 40)}" is not ${expected}.`, { field: `${field}[${index}]` });
    return canonical;
  });
  return [...new Set(values)];
}
