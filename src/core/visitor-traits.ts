import { UAParser } from 'ua-parser-js';
import type { RouteDevice } from './link-options.js';

/** A real User-Agent is a few hundred characters; the parser's cost grows with the length it reads. */
const MAX_USER_AGENT = 512;
/** Accept-Language entries read at most: browsers send a handful. */
const MAX_LANGUAGES = 20;

const IOS: readonly RouteDevice[] = ['ios', 'mobile'];
const ANDROID: readonly RouteDevice[] = ['android', 'mobile'];
const MOBILE: readonly RouteDevice[] = ['mobile'];
const DESKTOP: readonly RouteDevice[] = ['desktop'];

/**
 * The device families a route may name, from the User-Agent. A tablet counts as `mobile`, like a
 * phone; an iPad whose Safari asks for desktop sites (the iPadOS default) sends a Mac's
 * User-Agent and counts as `desktop`, since nothing in the request tells them apart. Anything
 * the parser names no handheld type for is `desktop`.
 */
export function routeDevicesOf(userAgent: string | undefined): readonly RouteDevice[] {
  const parser = new UAParser((userAgent ?? '').slice(0, MAX_USER_AGENT));
  const os = parser.getOS().name;
  if (os === 'iOS') return IOS;
  const type = parser.getDevice().type;
  const handheld = type === 'mobile' || type === 'tablet';
  if (os === 'Android') return handheld || type === undefined ? ANDROID : DESKTOP;
  return handheld ? MOBILE : DESKTOP;
}

/**
 * The primary subtags of an Accept-Language header, lower case, most preferred first (by q-value,
 * then by order): `de-CH, en;q=0.8, de;q=0.9` gives `de, en`. `*` and entries with q=0 are left out.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (header === undefined || header === '') return [];
  const entries: { language: string; q: number; order: number }[] = [];
  for (const [order, part] of header.split(',').slice(0, MAX_LANGUAGES).entries()) {
    const [tag = '', ...params] = part.split(';').map((piece) => piece.trim());
    const language = tag.split('-')[0]!.toLowerCase();
    if (!/^[a-z]{2,3}$/.test(language)) continue;
    const qParam = params.find((param) => /^q=/i.test(param));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    entries.push({ language, q, order });
  }
  entries.sort((a, b) => b.q - a.q || a.order - b.order);
  return [...new Set(entries.map((entry) => entry.language))];
}
