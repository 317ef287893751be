import { ValidationError } from './errors.js';

/** Top-level names that never reach the public DNS (RFC 6761, RFC 6762, RFC 7686, ICANN's `internal`). */
const PRIVATE_TLDS = new Set(['localhost', 'local', 'internal', 'invalid', 'test', 'onion', 'arpa', 'lan', 'home', 'corp']);
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const MAX_HOSTNAME = 253;

/**
 * A custom domain's hostname as it is stored and matched against `Host` (ADR 0036): lower-case,
 * IDNA-normalised to punycode by WHATWG URL, no trailing dot, no port, a name of at least two labels
 * under a public top-level name, never an IP address and never this service's own host.
 */
export function parseDomainHostname(raw: unknown, ownHosts: readonly string[]): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_HOSTNAME + 1 || /[\s/:@?#\\[\]%]/.test(raw)) throw invalid();
  let hostname: string;
  try {
    hostname = new URL(`http://${raw}/`).hostname;
  } catch {
    throw invalid();
  }
  if (hostname.endsWith('.')) hostname = hostname.slice(0, -1);
  const labels = hostname.split('.');
  const tld = labels[labels.length - 1]!;
  if (hostname.length > MAX_HOSTNAME || labels.length < 2 || !labels.every((label) => LABEL.test(label))) throw invalid();
  if (/^[0-9]+$/.test(tld) || PRIVATE_TLDS.has(tld)) throw invalid();
  if (ownHosts.includes(hostname)) throw invalid('This is the service\'s own host; it needs no registering.');
  return hostname;
}

/** The `Host` header's name as a domain is stored: lower-case, without port or trailing dot; '' when absent. */
export function hostnameOfHeader(host: string | undefined): string {
  if (host === undefined) return '';
  const colon = host.lastIndexOf(':');
  const bare = colon > host.lastIndexOf(']') ? host.slice(0, colon) : host;
  const name = bare.toLowerCase();
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** The name of the DNS TXT record that proves control of `hostname`. */
export function challengeRecordName(hostname: string): string {
  return `_linkforge-challenge.${hostname}`;
}

/** The path this deployment answers the HTTP challenge on. */
export const CHALLENGE_PATH_PREFIX = '/.well-known/linkforge-challenge/';

/**
 * The key a custom domain's links are stored under in `links.domain`: its id, never its hostname,
 * so a domain deleted and registered again (by another workspace) never inherits old links.
 */
export function domainKeyOf(domainId: number): string {
  return `domain-${domainId}`;
}

function invalid(detail?: string): ValidationError {
  return new ValidationError('domain_invalid', detail, { field: 'hostname' });
}
