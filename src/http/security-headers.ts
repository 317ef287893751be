import type { FastifyInstance } from 'fastify';

/**
 * The policy of every HTML page this process serves (the UI, the redirect failure pages): scripts,
 * styles and connections from this origin only, never inline; images also from data:/blob: URLs
 * (the QR codes are drawn client-side); no framing, no plugins, no <base> rewriting.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The interactive API docs (/docs): the same, except the inline styles Swagger UI sets on its elements. */
export const SWAGGER_UI_CSP = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/**
 * helmet's defaults, written out: no dependency for a constant. HSTS is ignored
 * by browsers on plain HTTP, so it costs nothing there and holds behind a TLS proxy; helmet's
 * `upgrade-insecure-requests` is left out, as it would break a plain-HTTP deployment on a LAN.
 */
export const HTML_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/**
 * Adds the security headers to every HTML response Fastify sends that did not set its own policy
 * (the interactive API docs bring a policy of their own, with hashes for their inline scripts).
 * The redirect fast path writes its pages itself, with the same headers (redirect-pages.ts).
 */
export function registerHtmlSecurityHeaders(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every response, and a promise each adds up.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      for (const [name, value] of Object.entries(HTML_SECURITY_HEADERS)) {
        if (!reply.hasHeader(name)) reply.header(name, value);
      }
    }
    reply.header('x-content-type-options', 'nosniff');
    done(null, payload);
  });
}
