import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

interface Response { description: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }
interface Operation { operationId?: string; security?: Array<Record<string, string[]>>; responses: Record<string, Response> }
type Document = { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, Record<string, string>> } };

/** Warnings of Redocly's recommended rules that are true of this API and stay (see the note beside each). */
const ACCEPTED_WARNINGS = new Set([
  'info-license #/info', // the project publishes no license
  'operation-4xx-response #/paths/~1healthz/get/responses', // liveness has no client error
  'operation-4xx-response #/paths/~1readyz/get/responses', // readiness answers 200 or 503
  'operation-4xx-response #/paths/~1api~1stats/get/responses', // the public totals take no input: 200 or 503
  'operation-4xx-response #/paths/~1api~1instance/get/responses', // the instance's switches take no input and read nothing: 200
  'operation-2xx-response #/paths/~1{code}/get/responses', // a redirect answers 3xx, never 2xx
  'operation-2xx-response #/paths/~1{code}/head/responses',
]);

function operations(document: Document): Array<{ path: string; method: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })));
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let body: string;
  let document: Document;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite);
    const response = await t.app.inject({ url: '/openapi.json' });
    assert.equal(response.statusCode, 200);
    body = response.body;
    document = response.json() as Document;
  });

  test('Redocly\'s recommended rules report no error, and only the accepted warnings', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: body, absoluteRef: 'openapi.json', config });
    const describe = (p: (typeof problems)[number]) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}`;
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${describe(p)}: ${p.message}`);
    assert.deepEqual(errors, [], `lint errors:\n${errors.join('\n')}`);
    const warnings = problems.filter((p) => p.severity === 'warn').map(describe).filter((w) => !ACCEPTED_WARNINGS.has(w));
    assert.deepEqual(warnings, [], `new lint warnings:\n${warnings.join('\n')}`);
  });

  test('GET and HEAD /{code} document the redirects with Location, and 404, 410, 429 and 503, the last two with Retry-After', () => {
    const redirect = document.paths['/{code}'];
    assert.ok(redirect?.get && redirect.head, 'both GET and HEAD are documented');
    for (const operation of [redirect.get, redirect.head]) {
      assert.deepEqual(Object.keys(operation.responses).sort(), ['301', '302', '404', '410', '429', '503']);
      for (const status of ['301', '302']) {
        assert.ok(operation.responses[status]!.headers?.location, `${status} has Location`);
        assert.ok(operation.responses[status]!.headers?.['cache-control'], `${status} has Cache-Control`);
        assert.equal(operation.responses[status]!.content, undefined, `${status} has no body`);
      }
      assert.ok(operation.responses['503']!.headers?.['retry-after'], '503 has Retry-After');
      assert.ok(operation.responses['429']!.headers?.['retry-after'], '429 has Retry-After');
    }
    for (const status of ['404', '410', '429', '503']) {
      assert.deepEqual(Object.keys(redirect.get.responses[status]!.content ?? {}).sort(), ['application/problem+json', 'text/html'], status);
      assert.equal(redirect.head.responses[status]!.content, undefined, `HEAD ${status} has no body`);
    }
  });

  test('the redirect statuses documented are the ones this instance is configured to answer', async (context) => {
    const other = await createTestApp(context, { PERMANENT_REDIRECT_STATUS: '308', TEMPORARY_REDIRECT_STATUS: '307' });
    const responses = (await other.app.inject({ url: '/openapi.json' })).json().paths['/{code}'].get.responses;
    assert.deepEqual(Object.keys(responses).sort(), ['307', '308', '404', '410', '429', '503']);
  });

  test('every error response of every operation is application/problem+json, never application/json', () => {
    let checked = 0;
    for (const { path, method, operation } of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400 || method === 'head') continue;
        const types = Object.keys(response.content ?? {});
        assert.ok(types.includes('application/problem+json'), `${method} ${path} ${status}: ${types.join(', ')}`);
        assert.ok(!types.includes('application/json'), `${method} ${path} ${status}: ${types.join(', ')}`);
        checked++;
      }
      for (const status of ['429', '503']) {
        if (operation.responses[status]) assert.ok(operation.responses[status].headers?.['retry-after'], `${method} ${path} ${status} has Retry-After`);
      }
    }
    assert.ok(checked > 50, `checked ${checked} error responses`);
  });

  test('a JWT scheme and an API-key scheme are declared, both sent as Authorization: Bearer', () => {
    const { jwt, apiKey } = document.components.securitySchemes;
    assert.deepEqual({ type: jwt?.type, scheme: jwt?.scheme, bearerFormat: jwt?.bearerFormat }, { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    assert.deepEqual({ type: apiKey?.type, scheme: apiKey?.scheme }, { type: 'http', scheme: 'bearer' });
    assert.match(apiKey!.description!, /lfk_/);
  });

  test('every operation declares its security: the v1 API accepts a JWT (bearer or session cookie) or an API key, the app API a JWT only, public routes none', () => {
    for (const { path, method, operation } of operations(document)) {
      const where = `${method} ${path}`;
      assert.ok(Array.isArray(operation.security), `${where} declares security`);
      assert.ok(operation.operationId, `${where} has an operationId`);
      if (path.startsWith('/api/v1/')) assert.deepEqual(operation.security, [{ jwt: [] }, { sessionCookie: [] }, { apiKey: [] }], where);
      else if (['/api/auth/me', '/api/auth/logout', '/api/admin/'].some((p) => path.startsWith(p)) || (path.startsWith('/api/urls') && path !== '/api/urls/public')) {
        assert.deepEqual(operation.security, [{ jwt: [] }, { sessionCookie: [] }], where);
      } else assert.deepEqual(operation.security, [], where);
    }
  });

  describe('the declared security is what the routes do', () => {
    let user: RegisteredUser;
    let apiKey: string;
    before(async () => {
      user = await registerUser(t.app);
      apiKey = await createApiKey(t.app, user.token, user.personalWorkspaceId);
    });

    test('each documented GET answers 401 without credentials exactly when it declares security (the operator\'s 404 under /api/admin/), and 401 to an API key exactly when it does not accept one', async () => {
      const params: Record<string, string> = { id: String(user.personalWorkspaceId), userId: String(user.user.id), keyId: '1', webhookId: '1', domainId: '1', short_code: 'abc', code: 'abc' };
      const gets = operations(document).filter(({ method }) => method === 'get');
      assert.ok(gets.length > 10);
      for (const { path, operation } of gets) {
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
        const schemes = new Set(operation.security!.flatMap((requirement) => Object.keys(requirement)));
        const anonymous = await t.app.inject({ url });
        if (path.startsWith('/api/admin/')) {
          // The operator's API hides itself: anyone but a site admin gets the 404 of an unknown route.
          assert.ok(schemes.size > 0, `GET ${url} declares security`);
          for (const headers of [{}, bearer(user.token), bearer(apiKey)]) assert.equal((await t.app.inject({ url, headers })).statusCode, 404, `GET ${url}`);
          continue;
        }
        assert.equal(anonymous.statusCode === 401, schemes.size > 0, `GET ${url} without credentials: ${anonymous.statusCode}`);
        if (schemes.size === 0) continue;
        const withJwt = await t.app.inject({ url, headers: bearer(user.token) });
        assert.notEqual(withJwt.statusCode, 401, `GET ${url} with a JWT`);
        const withKey = await t.app.inject({ url, headers: bearer(apiKey) });
        assert.equal(withKey.statusCode === 401, !schemes.has('apiKey'), `GET ${url} with an API key: ${withKey.statusCode}`);
      }
    });
  });
});
