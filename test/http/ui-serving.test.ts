import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerUiRoutes } from '../../src/http/routes/ui-routes.js';
import { CONTENT_SECURITY_POLICY } from '../../src/http/security-headers.js';
import { loadUiBuild } from '../../src/http/ui-assets.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { insertLink, setLinkColumns } from '../support/links.js';
import { suiteScope } from '../support/teardown.js';

const HOUR = 3_600_000;

function assertSecurityHeaders(headers: Record<string, unknown>, what: string) {
  assert.equal(headers['content-security-policy'], CONTENT_SECURITY_POLICY, what);
  assert.match(String(headers['content-security-policy']), /script-src 'self'(;|$)/, `${what}: no inline script allowed`);
  assert.doesNotMatch(String(headers['content-security-policy']), /unsafe-inline|unsafe-eval/, what);
  assert.match(String(headers['content-security-policy']), /frame-ancestors 'none'/, what);
  assert.equal(headers['x-content-type-options'], 'nosniff', what);
  assert.equal(headers['x-frame-options'], 'DENY', what);
  assert.equal(headers['referrer-policy'], 'no-referrer', what);
  // The rest of helmet's defaults (ADR 0017).
  assert.equal(headers['cross-origin-opener-policy'], 'same-origin', what);
  assert.equal(headers['cross-origin-resource-policy'], 'same-origin', what);
  assert.equal(headers['origin-agent-cluster'], '?1', what);
  assert.match(String(headers['strict-transport-security']), /^max-age=\d+/, what);
  assert.equal(headers['x-permitted-cross-domain-policies'], 'none', what);
  assert.equal(headers['x-xss-protection'], '0', what);
}

/** The web UI is served by the API process (docs/adr/0017-web-ui.md); npm test builds it before running. */
describe('serving the web UI', () => {
  let t: TestApp;
  const build = loadUiBuild();
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite); });

  test('the build exists (npm test and npm start build it when missing)', () => {
    assert.ok(build, 'web/dist/index.html');
    assert.ok(build.assets.size >= 2, 'a script and a stylesheet');
  });

  test('/ and every /app/* path answer the SPA index, revalidated, with the security headers', async () => {
    for (const url of ['/', '/app', '/app/login', '/app/register', '/app/dashboard', '/app/workspaces', '/app/links/12', '/app/anything/else']) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', url);
      assert.equal(res.headers['cache-control'], 'no-cache', url);
      assert.equal(res.body, build!.index.body.toString(), url);
      assertSecurityHeaders(res.headers, url);
    }
  });

  test('the index loads only hashed files from /assets/, and has no inline script', () => {
    const html = build!.index.body.toString();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length > 0);
    for (const [, attributes, body] of scripts) {
      assert.match(attributes!, /src="\/assets\/[\w-]+-[\w-]{8}\.js"/);
      assert.equal(body!.trim(), '', 'no inline script');
    }
    assert.doesNotMatch(html, /<style|style="| on\w+=/i, 'no inline style or handler');
  });

  test('/assets/* answers the hashed files with a one-year immutable cache and their content type; others 404', async () => {
    for (const [url, file] of build!.assets) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable', url);
      assert.equal(res.headers['content-type'], file.contentType, url);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
      assert.equal(res.rawPayload.length, file.body.length, url);
    }
    assert.ok([...build!.assets.values()].some((file) => file.contentType.startsWith('text/javascript')));
    const missing = await t.app.inject({ url: '/assets/index-00000000.js' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal((await t.app.inject({ url: '/assets/../package.json' })).statusCode, 404);
  });

  test('the API is unaffected: JSON answers keep their type and carry no page policy', async () => {
    const res = await t.app.inject({ url: '/api/urls' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(res.headers['content-security-policy'], undefined);
    assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
  });

  test('a short code still redirects, and the UI paths are never codes', async () => {
    const link = await insertLink(t.deps);
    assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
    const custom = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/x' } });
    assert.equal(custom.statusCode, 201);
  });

  test('the expired, deleted and not-found pages carry the security headers, use the product\'s stylesheet and link only to the home page', async () => {
    const expired = await insertLink(t.deps, { linkType: 'TEMPORARY', expiresAt: t.clock.now() - HOUR });
    const deleted = await insertLink(t.deps);
    await setLinkColumns(t.deps, deleted.id, { status: 'DELETED', deleted_at: t.clock.now() });
    for (const url of [`/${expired.code}`, `/${deleted.code}`, '/nosuchcode']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
      assert.ok([404, 410].includes(res.statusCode), url);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', url);
      assertSecurityHeaders(res.headers, url);
      assert.match(res.body, /<a href="\/">Shorten a link<\/a>/, url);
      assert.doesNotMatch(res.body, /href="\/app/, `${url}: no link into pages that need a session`);
      assert.match(res.body, new RegExp(`<link rel="stylesheet" href="/page\\.css\\?v=${build!.recipientStylesheetVersion}">`), url);
      assert.doesNotMatch(res.body, /<style|<script|style=/, `${url}: nothing the policy would refuse`);
      const json = await t.app.inject({ url, headers: { accept: 'application/json' } });
      assert.equal(json.headers['content-security-policy'], undefined, `${url} as JSON`);
      assert.equal(json.headers['x-content-type-options'], 'nosniff', `${url} as JSON`);
    }
  });

  test('the API docs link back into the UI and never call the online validator', async () => {
    const spec = (await t.app.inject({ url: '/openapi.json' })).json() as { info: { description: string } };
    assert.match(spec.info.description, /\[Back to the Linkforge web UI\]\(\/\)/);
    const docs = await t.app.inject({ url: '/docs' });
    assert.equal(docs.statusCode, 200);
    assert.doesNotMatch(String(docs.headers['content-security-policy']), /validator\.swagger\.io|https:/);
    assert.match(String(docs.headers['content-security-policy']), /frame-ancestors 'none'/);
    const init = await t.app.inject({ url: '/docs/static/swagger-initializer.js' });
    assert.match(init.body, /validatorUrl"?:\s*null/);
  });
});

describe('the web UI when it has not been built', () => {
  test('/ and /app/* answer 503 with a problem saying how to build it; /assets/* is a 404', async () => {
    const app = Fastify();
    registerUiRoutes(app, undefined);
    for (const url of ['/', '/app/dashboard']) {
      const res = await app.inject({ url });
      assert.equal(res.statusCode, 503, url);
      assert.equal(res.json().code, 'ui_not_built', url);
      assert.match(res.json().detail, /npm run build:ui/);
      assert.equal(res.headers['retry-after'], '60');
    }
    assert.equal((await app.inject({ url: '/assets/index-00000000.js' })).statusCode, 404);
    await app.close();
  });
});
