// Only http and https targets name this server; anything else is left for the router to refuse.
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * RFC 9112 section 3.2.2: a server must accept a request target in absolute form
 * (`GET http://host/code HTTP/1.1`), which Node hands over as it came. Its path and query, the
 * origin form, is what the routes match on; the authority names this server whatever it says,
 * because every host this server answers serves the same links.
 */
export function originForm(target: string): string {
  const authority = ABSOLUTE_FORM.exec(target);
  if (authority === null) return target;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
