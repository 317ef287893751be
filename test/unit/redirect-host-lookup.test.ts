import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServedDomain } from '../../src/core/domain-ports.js';
import type { RedirectTarget } from '../../src/core/link.js';
import type { LinkResolver } from '../../src/links/resolve-link.js';
import { RedirectResponder } from '../../src/http/redirect-responder.js';

const TARGET: RedirectTarget = { url: 'https://example.com/', expiresAt: null, status: 'ACTIVE', linkId: 1, permanent: true };

/**
 * ADR 0036: the Host lookup of the redirect path reads the raw headers, never `req.headers` (an
 * object Node builds on first use), and not even those while no custom domain exists.
 */
describe('the redirect path\'s Host lookup', () => {
  function answer(hosts: { size: number; find(host: string | undefined): ServedDomain | undefined } | undefined, strictHost?: string) {
    const asked: string[] = [];
    let headersBuilt = false;
    let rawRead = false;
    const resolver = { fromCache: (domain: string) => { asked.push(domain); return domain === 'missing' ? null : TARGET; }, load: () => undefined } as unknown as LinkResolver;
    const responder = new RedirectResponder({ resolver, domain: 'default', hosts, strictHost, clock: { now: () => 0 }, permanentStatus: 301, temporaryStatus: 302, maxAgeSeconds: 300 });
    const req = {
      method: 'GET', url: '/abc',
      get rawHeaders() { rawRead = true; return ['Host', 'go.example.com', 'Accept', '*/*']; },
      get headers() { headersBuilt = true; return { host: 'go.example.com', accept: '*/*' }; },
    } as unknown as IncomingMessage;
    const written: { status?: number; headers?: Record<string, string> } = {};
    const res = { writeHead: (status: number, headers: Record<string, string>) => Object.assign(written, { status, headers }), end: () => undefined, getHeader: () => undefined } as unknown as ServerResponse;
    responder.respond('abc', req, res);
    return { asked, headersBuilt, rawRead, written };
  }
  const served: ServedDomain = { hostname: 'go.example.com', key: 'domain-7', workspaceId: 1, rootRedirectUrl: null, notFoundRedirectUrl: null };

  test('with no custom domain, a redirect reads no header at all and asks for the default domain', () => {
    for (const hosts of [undefined, { size: 0, find: () => assert.fail('looked up with no domains') }]) {
      const { asked, headersBuilt, rawRead, written } = answer(hosts);
      assert.deepEqual([asked, headersBuilt, rawRead, written.status], [['default'], false, false, 301]);
    }
  });

  test('with custom domains, the raw Host header names the domain key, and req.headers is never built', () => {
    const { asked, headersBuilt, written } = answer({ size: 1, find: (host) => (host === 'go.example.com' ? served : undefined) });
    assert.deepEqual([asked, headersBuilt, written.status], [['domain-7'], false, 301]);
    const unknown = answer({ size: 1, find: () => undefined });
    assert.deepEqual(unknown.asked, ['default']);
  });

  test('STRICT_HOSTS: a Host that is neither BASE_URL\'s nor a domain\'s is 404 without a lookup of the code', () => {
    const { asked, written } = answer({ size: 0, find: () => undefined }, 'sho.rt');
    assert.deepEqual([asked, written.status], [[], 404]);
  });
});
