/**
 * What a link may do besides redirect to its URL (ADR 0031). A plain link has none of it, and
 * its redirect target carries no `extras`: the hot path tells the two apart by one comparison.
 */

/** The devices a route may name: `mobile` is any phone or tablet, `ios` and `android` the two families. */
export const ROUTE_DEVICES = ['ios', 'android', 'mobile', 'desktop'] as const;
export type RouteDevice = typeof ROUTE_DEVICES[number];

/** One routing rule: every condition it names must match; the first matching route's URL wins. */
export interface LinkRoute {
  /** ISO 3166-1 alpha-2 codes, upper case. */
  readonly country?: readonly string[];
  readonly device?: readonly RouteDevice[];
  /** Primary language subtags, lower case (`de`, `pt`). */
  readonly language?: readonly string[];
  readonly url: string;
}

/** One arm of an A/B split; weights are relative. */
export interface LinkVariant {
  readonly url: string;
  readonly weight: number;
}

/** What link-preview bots are shown instead of the redirect. */
export interface LinkPreview {
  readonly title?: string;
  readonly description?: string;
  readonly image?: string;
}

/** The options stored as one JSON value on the link (`links.options`); absent keys are off. */
export interface LinkOptions {
  readonly fallbackUrl?: string;
  readonly confirmBeforeRedirect?: true;
  readonly routes?: readonly LinkRoute[];
  readonly variants?: readonly LinkVariant[];
  readonly preview?: LinkPreview;
}

/**
 * What a redirect needs beyond a plain target: the stored options, whether a password guards the
 * link (with its hash, to verify the unlock cookie without a database read), and whether a click
 * limit applies (the count itself is only ever decremented in the database, atomically).
 */
export interface LinkExtras {
  readonly options?: LinkOptions;
  readonly passwordHash?: string;
  readonly maxClicks?: number;
}

/** The options as stored: null when there are none, so a plain link stays plain. */
export function storedOptions(options: LinkOptions | null | undefined): string | null {
  if (options === null || options === undefined) return null;
  return Object.keys(options).length === 0 ? null : JSON.stringify(options);
}

/** Reads the stored JSON; a value this version cannot read counts as none. */
export function parseStoredOptions(text: string | null | undefined): LinkOptions | null {
  if (text === null || text === undefined || text === '') return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as LinkOptions : null;
  } catch {
    return null;
  }
}

/** The extras of a link, or undefined for a plain one (the lean cache entry). */
export function extrasOf(options: LinkOptions | null, passwordHash: string | null, maxClicks: number | null): LinkExtras | undefined {
  if (options === null && passwordHash === null && maxClicks === null) return undefined;
  return {
    ...(options === null ? {} : { options }),
    ...(passwordHash === null ? {} : { passwordHash }),
    ...(maxClicks === null ? {} : { maxClicks }),
  };
}

/** Two extras alike: what the change follower compares to know a cached entry is stale. */
export function sameExtras(a: LinkExtras | undefined, b: LinkExtras | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.passwordHash === b.passwordHash && a.maxClicks === b.maxClicks && JSON.stringify(a.options) === JSON.stringify(b.options);
}

/**
 * The options with one key set (or removed, when `value` is undefined), the others kept: a change
 * of one option never drops another. Null when none are left, so a plain link stays plain.
 */
export function withOption<K extends keyof LinkOptions>(options: LinkOptions | null, key: K, value: LinkOptions[K] | undefined): LinkOptions | null {
  const { [key]: _dropped, ...rest } = options ?? {};
  const next: LinkOptions = value === undefined ? rest : { ...rest, [key]: value };
  return Object.keys(next).length === 0 ? null : next;
}
