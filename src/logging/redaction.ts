/**
 * What never reaches a log line (ADR 0018): credentials in headers, and secrets in any object a
 * line carries (a request body, a query, an error's details), at the top level or one level down.
 */
const SECRET_FIELDS = ['password', 'currentPassword', 'newPassword', 'token', 'accessToken', 'refreshToken', 'claimToken', 'csrfToken', 'apiKey', 'key', 'secret', 'authorization', 'cookie'];

export const REDACTED_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'headers["x-csrf-token"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.body.${field}`]),
  'body.links[*].claimToken',
  'links[*].claimToken',
  '*.body.links[*].claimToken',
];

/** Query parameters whose value is replaced in a logged URL. */
const SECRET_PARAMETER = /token|key|secret|password|auth|sig|code_verifier/i;

/**
 * On the sign-in provider's return (`/auth/oidc/callback`, ADR 0034) `code` is an authorization code
 * and `state` its binding: both are redeemable secrets there, while elsewhere `code` is a short code.
 */
const SIGN_IN_PATHS = '/auth/oidc/';
const SIGN_IN_PARAMETER = /^(code|state)$/i;

/** The URL with the value of every secret-looking query parameter replaced by `[Redacted]`. */
export function redactedUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const signIn = url.startsWith(SIGN_IN_PATHS);
  const parameters = url.slice(query + 1).split('&').map((pair) => {
    const name = pair.split('=', 1)[0]!;
    const decoded = decodeSafely(name);
    const secret = SECRET_PARAMETER.test(decoded) || (signIn && SIGN_IN_PARAMETER.test(decoded));
    return secret && pair.includes('=') ? `${name}=[Redacted]` : pair;
  });
  return `${url.slice(0, query)}?${parameters.join('&')}`;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
