import { ValidationError } from './errors.js';
import { isForbiddenAddress } from './ip-ranges.js';

export interface UrlPolicy {
  maxLength: number;
  /** This service's own short domains (hostnames without port); links to them would loop. */
  shortHosts: readonly string[];
  /** The instance's verified custom domains (ADR 0036), which would loop too; none when absent. */
  isCustomDomain?: (hostname: string) => boolean;
  allowPrivate: boolean;
  /** Lower-case domains without trailing dot; each also blocks its subdomains. */
  blockedDomains: ReadonlySet<string>;
}

export interface Destination {
  /** WHATWG serialization, fragment kept: what the redirect sends. */
  originalUrl: string;
  /** Canonical form, for deduplication and hashing only. */
  normalizedUrl: string;
}

// C0, DEL, C1 and every Unicode whitespace (\s covers U+2028/2029, NBSP, U+3000, BOM …).
// WHATWG strips tabs and newlines silently (`java\nscript:` parses as `javascript:`),
// so this runs on the raw text before parsing.
const WHITESPACE_OR_CONTROL = /[\u0000-\u001F\u007F-\u009F\s]/u;
const IPV4_DOTTED = /^\d{1,3}(\.\d{1,3}){3}$/;
const PERCENT_ESCAPE = /%[0-9a-f]{2}/gi;
// No DNS name is longer, so longer suffixes cannot be blocklist entries; skipping them keeps a host
// of thousands of labels from costing quadratic time in the blocklist walk.
const MAX_DOMAIN_LENGTH = 253;

/** Validates a user-supplied destination and returns its two forms. Throws ValidationError only. */
export function parseDestination(raw: unknown, policy: UrlPolicy): Destination {
  if (typeof raw !== 'string') {
    throw new ValidationError('url_invalid', 'The URL must be given as text.');
  }
  const text = raw.trim();
  assertWithinLength(text, policy.maxLength);
  if (WHITESPACE_OR_CONTROL.test(text)) {
    throw new ValidationError('url_whitespace_not_allowed',
      'The URL must not contain spaces, line breaks or other control characters.');
  }
  const url = parseAbsoluteUrl(text);
  assertAllowedTarget(url, policy);
  assertWithinLength(url.href, policy.maxLength);
  return { originalUrl: url.href, normalizedUrl: canonicalize(url) };
}

/** The canonical form of a parsed URL (ADR 0008 for fragments); parsing (WHATWG) is the caller's `new URL`. */
export function canonicalize(url: URL): string {
  const path = withoutTrailing('/', upperCaseEscapes(url.pathname)) || '/';
  const query = sortQuery(upperCaseEscapes(url.search.slice(1)));
  return `${url.protocol}//${url.host}${path}${query === '' ? '' : `?${query}`}${clientSideRoute(url.hash)}`;
}

/**
 * Step 5: a fragment starting with `/` or `!` is a single-page application's route (`#/settings`,
 * `#!/page`), so it names different content and is kept. It is kept exactly as WHATWG serializes it
 * (that only percent-encodes what a URL cannot carry raw): no escape upper-casing, no trailing-slash
 * or parameter sorting, because the router, not the server, decides what the text after `#` means.
 * Any other fragment is an in-page anchor and is dropped.
 */
function clientSideRoute(hash: string): string {
  return hash.startsWith('#/') || hash.startsWith('#!') ? hash : '';
}

/**
 * One domain per line; `#` starts a comment. Published malware lists often come in hosts-file form
 * (`0.0.0.0 evil.com`), so the last word of a line is the domain; a leading `*.` or `.` is ignored
 * because subdomains are always included. Non-ASCII names are stored as punycode, as WHATWG reports hosts.
 */
export function parseBlocklist(text: string): Set<string> {
  const domains = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const lastWord = line.replace(/#.*/, '').trim().split(/\s+/).at(-1) ?? '';
    const entry = bareHostname(lastWord.replace(/^\*?\./, ''));
    if (entry !== '') domains.add(toAsciiDomain(entry));
  }
  return domains;
}

function assertWithinLength(text: string, maxLength: number): void {
  if (text.length > maxLength) {
    throw new ValidationError('url_too_long',
      `The URL is too long: at most ${maxLength} characters are allowed.`, { maxLength });
  }
}

function parseAbsoluteUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationError('url_invalid', 'This is not a valid absolute URL (it should look like https://example.com/page).');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ValidationError('url_scheme_not_allowed', 'Only http and https URLs can be shortened.');
  }
  if (url.username !== '' || url.password !== '') {
    throw new ValidationError('url_userinfo_not_allowed',
      'URLs containing a user name or password (user@host) cannot be shortened.');
  }
  if (bareHostname(url.hostname) === '') {
    throw new ValidationError('url_invalid', 'The URL has no host name.');
  }
  return url;
}

function assertAllowedTarget(url: URL, policy: UrlPolicy): void {
  const hostname = bareHostname(url.hostname);
  if (policy.shortHosts.some((shortHost) => bareHostname(shortHost) === hostname) || policy.isCustomDomain?.(hostname)) {
    throw new ValidationError('url_loop_not_allowed',
      'Links to this shortener\'s own short domain are not allowed: they would redirect in a loop.');
  }
  if (!policy.allowPrivate && isPrivateHost(hostname)) {
    throw new ValidationError('url_private_address_not_allowed',
      'Links to loopback, private, link-local or other internal network addresses are not allowed.');
  }
  if (isBlockedDomain(hostname, policy.blockedDomains)) {
    throw new ValidationError('url_domain_blocked', 'Links to this domain are not allowed on this service.');
  }
}

// Trailing dots are stripped so that `evil.com.`, `localhost.` and `127.0.0.1..` cannot slip past a comparison.
function bareHostname(hostname: string): string {
  return withoutTrailing('.', hostname.toLowerCase());
}

// A loop rather than /x+$/, which backtracks quadratically over a long run of x not at the end.
function withoutTrailing(character: string, text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === character) end -= 1;
  return text.slice(0, end);
}

function isPrivateHost(hostname: string): boolean {
  if (hostname.startsWith('[')) return isForbiddenAddress(hostname.slice(1, -1));
  if (IPV4_DOTTED.test(hostname)) return isForbiddenAddress(hostname);
  // RFC 6761 reserves these names for loopback, so they are as internal as 127.0.0.1.
  return hostname === 'localhost' || hostname.endsWith('.localhost');
}

function isBlockedDomain(hostname: string, blockedDomains: ReadonlySet<string>): boolean {
  if (blockedDomains.size === 0) return false;
  if (hostname.startsWith('[')) return blockedDomains.has(hostname.slice(1, -1));
  if (IPV4_DOTTED.test(hostname)) return blockedDomains.has(hostname);
  for (let start = 0; start < hostname.length;) {
    if (hostname.length - start <= MAX_DOMAIN_LENGTH && blockedDomains.has(hostname.slice(start))) return true;
    const dot = hostname.indexOf('.', start);
    if (dot === -1) return false;
    start = dot + 1;
  }
  return false;
}

function toAsciiDomain(domain: string): string {
  if (/^[\x21-\x7E]*$/.test(domain)) return domain;
  try {
    return bareHostname(new URL(`http://${domain}/`).hostname);
  } catch {
    return domain;
  }
}

function upperCaseEscapes(text: string): string {
  return text.replace(PERCENT_ESCAPE, (escape) => escape.toUpperCase());
}

function sortQuery(query: string): string {
  const keyOf = (part: string) => part.split('=', 1)[0] ?? '';
  // Array.prototype.sort is stable, which keeps repeated keys (`b=2&b=1`) in their original order.
  return query
    .split('&')
    .filter((part) => part !== '')
    .sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0))
    .join('&');
}
