/**
 * The visitor's anonymous links, kept in localStorage exactly as POST /api/urls/sync takes them
 * (docs/specification.md, "Claiming anonymous links"): `{shortCode, claimToken, url, expiresAt}`, expiresAt in ISO 8601.
 */
const KEY = 'linkforge.anonymousLinks';

export interface AnonLink {
  readonly shortCode: string;
  readonly claimToken: string;
  readonly url: string;
  readonly expiresAt: string;
}

function isAnonLink(value: unknown): value is AnonLink {
  const entry = value as Partial<AnonLink> | null;
  return typeof entry?.shortCode === 'string' && typeof entry.claimToken === 'string'
    && typeof entry.url === 'string' && typeof entry.expiresAt === 'string';
}

function readAll(): AnonLink[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isAnonLink) : [];
  } catch {
    return [];
  }
}

function writeAll(links: readonly AnonLink[]): void {
  if (links.length === 0) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, JSON.stringify(links));
}

export const isExpired = (link: AnonLink, now = Date.now()) => Date.parse(link.expiresAt) <= now;

/** The links still alive, newest first; expired ones are dropped from storage as they are read. */
export function liveAnonLinks(now = Date.now()): AnonLink[] {
  const all = readAll();
  const live = all.filter((link) => !isExpired(link, now));
  if (live.length !== all.length) writeAll(live);
  return live;
}

export function rememberAnonLink(link: AnonLink): void {
  writeAll([link, ...readAll().filter((other) => other.shortCode !== link.shortCode)]);
}

export function forgetAnonLinks(codes: readonly string[]): void {
  const gone = new Set(codes);
  writeAll(readAll().filter((link) => !gone.has(link.shortCode)));
}
