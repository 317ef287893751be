import type { Config } from './config-shape.js';
import type { EnvReader } from './config-env-reader.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const OIDC_TRIO = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;

/** An https issuer, or plain http on a loopback host (tests, a provider on the same machine); undefined when it is neither. */
function parseIssuer(text: string): { issuer: string; loopbackHttp: boolean } | undefined {
  try {
    const url = new URL(text);
    if (url.search || url.hash || url.username || url.password) return undefined;
    if (url.protocol === 'https:') return { issuer: text, loopbackHttp: false };
    if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return { issuer: text, loopbackHttp: true };
  } catch { /* not a URL */ }
  return undefined;
}

/**
 * How people sign in (ADR 0034): with a password (PASSWORD_LOGIN), with an OpenID Connect
 * provider (OIDC_*), or both. All of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET or none;
 * turning passwords off with no provider would leave nobody able to sign in, so it stops start-up.
 */
export function readSignIn(read: EnvReader): Config['signIn'] {
  const passwordLogin = read.bool('PASSWORD_LOGIN', true);
  const [issuerText, clientId, clientSecret] = OIDC_TRIO.map((name) => read.optional(name));
  const name = read.string('OIDC_NAME', 'single sign-on');
  const adminGroupsText = read.optional('OIDC_ADMIN_GROUPS');
  const given = OIDC_TRIO.filter((_, index) => [issuerText, clientId, clientSecret][index] !== undefined);
  if (given.length > 0 && given.length < OIDC_TRIO.length) {
    read.problems.push(`OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together: set all three or none (missing ${OIDC_TRIO.filter((n) => !given.includes(n)).join(', ')})`);
  }
  const issuer = issuerText === undefined ? undefined : parseIssuer(issuerText);
  if (issuerText !== undefined && issuer === undefined) {
    read.problems.push(`OIDC_ISSUER must be an https:// URL without query or fragment, like https://login.example.com/realms/main (plain http only on 127.0.0.1, localhost or [::1]) (got "${issuerText}")`);
  }
  const configured = issuer !== undefined && clientId !== undefined && clientSecret !== undefined;
  if (adminGroupsText !== undefined && given.length === 0) read.problems.push('OIDC_ADMIN_GROUPS needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  if (!passwordLogin && given.length === 0) {
    read.problems.push('PASSWORD_LOGIN=false needs single sign-on (OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET): otherwise nobody could sign in');
  }
  const adminGroups = adminGroupsText?.split(',').map((group) => group.trim()).filter(Boolean);
  return {
    passwordLogin,
    oidc: configured ? { ...issuer, clientId, clientSecret, name, adminGroups } : undefined,
  };
}
