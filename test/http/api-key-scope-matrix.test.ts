import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { API_KEY_SCOPES, type ApiKeyScope } from '../../src/core/api-key-scopes.js';
import { multipartFile } from '../support/multipart.js';
import { accountAndLinkRows, createScopedKey } from '../support/scoped-keys.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { suiteScope } from '../support/teardown.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';

interface Operation { security?: Array<Record<string, string[]>>; 'x-api-key-scope'?: string }
/** What a key holding the route's scope gets: a status, or 403 `permission_denied` where no key may act (ADR 0032). */
interface Row { readonly scope: ApiKeyScope; readonly allowed: number | 'permission_denied'; readonly request: () => Promise<InjectOptions> }

/**
 * ADR 0032: every authenticated `/api` route × an API key holding each single scope. The route list
 * comes from the app (its OpenAPI document, generated from the registered routes), so a route
 * added without a row here fails. A key lacking the route's scope gets 403 `insufficient_scope` and
 * changes nothing; a key holding it gets what the row says. Routes that take no keys refuse them all.
 */
describe('API key scopes: every authenticated route × every scope', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let other: RegisteredUser;
  let team: number;
  const keys = {} as Record<ApiKeyScope, string>;
  let fullKey: string;
  let serial = 0;
  let operations: Array<{ method: string; path: string; operation: Operation }>;

  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', RATE_LIMIT_IMPORT: '0' });
    [owner, other] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    team = (await asOwner({ method: 'POST', url: '/api/v1/workspaces', payload: { name: 'scoped' } })).id as number;
    for (const scope of API_KEY_SCOPES) keys[scope] = await createScopedKey(t.app, owner.token, team, [scope]);
    fullKey = await createScopedKey(t.app, owner.token, team, API_KEY_SCOPES);
    const document = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    operations = Object.entries(document.paths).filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })))
      .filter(({ operation }) => (operation.security ?? []).length > 0);
  });

  async function asOwner(options: InjectOptions): Promise<Record<string, unknown>> {
    const response = await t.app.inject({ ...options, headers: bearer(owner.token) });
    assert.ok(response.statusCode < 300, `${options.method} ${options.url}: ${response.body}`);
    return response.statusCode === 204 ? {} : response.json();
  }
  const unique = (what: string) => `${what}-${++serial}`;
  const v1 = (path = '') => `/api/v1/workspaces/${team}${path}`;
  const newLink = async () => (await asOwner({ method: 'POST', url: v1('/links'), payload: { original_url: `https://example.com/${unique('scoped')}` } })).short_code as string;
  const deletedLink = async () => {
    const code = await newLink();
    await asOwner({ method: 'DELETE', url: v1(`/links/${code}`) });
    return code;
  };
  const newTag = async () => (await asOwner({ method: 'POST', url: v1('/tags'), payload: { name: unique('tag') } })).id as number;
  const newDomain = async () => (await asOwner({ method: 'POST', url: v1('/domains'), payload: { hostname: `${unique('d')}.example.com` } })).id as number;
  // Verified in the database: the matrix asks no DNS server, and a verified domain's verify answers without asking.
  const verifiedDomain = async () => {
    const id = await newDomain();
    await t.deps.database.db.updateTable('domains').set({ status: 'verified', verified_at: 1 }).where('id', '=', id).execute();
    return id;
  };
  const otherMember = async () => {
    await t.app.inject({ method: 'POST', url: v1('/members'), headers: bearer(owner.token), payload: { email: other.user.email, role: 'member' } });
    return other.user.id;
  };
  const newWebhook = async () => (await asOwner({ method: 'POST', url: v1('/webhooks'), payload: { url: 'https://8.8.8.8/hook', events: ['link.created'] } })).id as number;
  /** An endpoint with one delivery pending: the `link.created` of a new link. */
  const newDelivery = async () => {
    const webhook = await newWebhook();
    await newLink();
    const { deliveries } = await asOwner({ method: 'GET', url: v1(`/webhooks/${webhook}/deliveries`) }) as { deliveries: Array<{ id: number }> };
    return `/webhooks/${webhook}/deliveries/${deliveries[0]!.id}`;
  };
  const importBody = () => {
    const body = multipartFile(`link,long_url,title,created_at,created_by,archived,tags,custom_bitlinks\nhttps://bit.ly/imp${++serial},https://example.com/${unique('imported')},,2023-03-01T10:15:00+0000,alice,false,,\n`);
    return { payload: body.payload, headers: body.headers };
  };

  const ROWS: Record<string, Row> = {
    'POST /api/v1/workspaces': { scope: 'workspace:admin', allowed: 'permission_denied', request: async () => ({ method: 'POST', url: '/api/v1/workspaces', payload: { name: unique('ws') } }) },
    'GET /api/v1/workspaces': { scope: 'links:read', allowed: 200, request: async () => ({ method: 'GET', url: '/api/v1/workspaces' }) },
    'POST /api/v1/workspaces/{id}/links': { scope: 'links:write', allowed: 201, request: async () => ({ method: 'POST', url: v1('/links'), payload: { original_url: `https://example.com/${unique('new')}` } }) },
    'GET /api/v1/workspaces/{id}/links': { scope: 'links:read', allowed: 200, request: async () => ({ method: 'GET', url: v1('/links') }) },
    'GET /api/v1/workspaces/{id}/links/{short_code}': { scope: 'links:read', allowed: 200, request: async () => ({ method: 'GET', url: v1(`/links/${await newLink()}`) }) },
    'PATCH /api/v1/workspaces/{id}/links/{short_code}': { scope: 'links:write', allowed: 200, request: async () => ({ method: 'PATCH', url: v1(`/links/${await newLink()}`), payload: { original_url: `https://example.com/${unique('patched')}` } }) },
    'DELETE /api/v1/workspaces/{id}/links/{short_code}': { scope: 'links:write', allowed: 204, request: async () => ({ method: 'DELETE', url: v1(`/links/${await newLink()}`) }) },
    'POST /api/v1/workspaces/{id}/links/{short_code}/restore': { scope: 'links:write', allowed: 200, request: async () => ({ method: 'POST', url: v1(`/links/${await deletedLink()}/restore`) }) },
    'GET /api/v1/workspaces/{id}/links/{short_code}/stats': { scope: 'stats:read', allowed: 200, request: async () => ({ method: 'GET', url: v1(`/links/${await newLink()}/stats`) }) },
    'GET /api/v1/workspaces/{id}/visits.csv': { scope: 'stats:read', allowed: 200, request: async () => ({ method: 'GET', url: v1('/visits.csv') }) },
    'GET /api/v1/workspaces/{id}/tags': { scope: 'links:read', allowed: 200, request: async () => ({ method: 'GET', url: v1('/tags') }) },
    'POST /api/v1/workspaces/{id}/tags': { scope: 'links:write', allowed: 201, request: async () => ({ method: 'POST', url: v1('/tags'), payload: { name: unique('tag') } }) },
    'PATCH /api/v1/workspaces/{id}/tags/{tagId}': { scope: 'links:write', allowed: 200, request: async () => ({ method: 'PATCH', url: v1(`/tags/${await newTag()}`), payload: { name: unique('renamed') } }) },
    'DELETE /api/v1/workspaces/{id}/tags/{tagId}': { scope: 'links:write', allowed: 204, request: async () => ({ method: 'DELETE', url: v1(`/tags/${await newTag()}`) }) },
    'POST /api/v1/workspaces/{id}/imports': { scope: 'links:write', allowed: 200, request: async () => ({ method: 'POST', url: v1('/imports'), ...importBody() }) },
    'GET /api/v1/workspaces/{id}/members': { scope: 'workspace:admin', allowed: 200, request: async () => ({ method: 'GET', url: v1('/members') }) },
    'POST /api/v1/workspaces/{id}/members': { scope: 'workspace:admin', allowed: 'permission_denied', request: async () => ({ method: 'POST', url: v1('/members'), payload: { email: other.user.email, role: 'admin' } }) },
    'DELETE /api/v1/workspaces/{id}/members/{userId}': { scope: 'workspace:admin', allowed: 'permission_denied', request: async () => ({ method: 'DELETE', url: v1(`/members/${await otherMember()}`) }) },
    'GET /api/v1/workspaces/{id}/api-keys': { scope: 'workspace:admin', allowed: 200, request: async () => ({ method: 'GET', url: v1('/api-keys') }) },
    'POST /api/v1/workspaces/{id}/api-keys': { scope: 'workspace:admin', allowed: 'permission_denied', request: async () => ({ method: 'POST', url: v1('/api-keys'), payload: { name: unique('key') } }) },
    'POST /api/v1/workspaces/{id}/domains': { scope: 'workspace:admin', allowed: 201, request: async () => ({ method: 'POST', url: v1('/domains'), payload: { hostname: `${unique('d')}.example.com` } }) },
    'GET /api/v1/workspaces/{id}/domains': { scope: 'workspace:admin', allowed: 200, request: async () => ({ method: 'GET', url: v1('/domains') }) },
    'GET /api/v1/workspaces/{id}/domains/{domainId}': { scope: 'workspace:admin', allowed: 200, request: async () => ({ method: 'GET', url: v1(`/domains/${await newDomain()}`) }) },
    'PATCH /api/v1/workspaces/{id}/domains/{domainId}': { scope: 'workspace:admin', allowed: 200, request: async () => ({ method: 'PATCH', url: v1(`/domains/${await newDomain()}`), payload: { root_redirect_url: 'https://example.com/' } }) },
    'DELETE /api/v1/workspaces/{id}/domains/{domainId}': { scope: 'workspace:admin', allowed: 204, request: async () => ({ method: 'DELETE', url: v1(`/domains/${await newDomain()}`) }) },
    'POST /api/v1/workspaces/{id}/domains/{domainId}/verify': { scope: 'workspace:admin', allowed: 200, request: async () => ({ method: 'POST', url: v1(`/domains/${await verifiedDomain()}/verify`) }) },
    'DELETE /api/v1/workspaces/{id}/api-keys/{keyId}': { scope: 'workspace:admin', allowed: 'permission_denied', request: async () => ({ method: 'DELETE', url: v1('/api-keys/1') }) },
    'POST /api/v1/workspaces/{id}/webhooks': { scope: 'workspace:admin', allowed: 'permission_denied', request: async () => ({ method: 'POST', url: v1('/webhooks'), payload: { url: 'https://8.8.8.8/hook', events: ['link.created'] } }) },
    'GET /api/v1/workspaces/{id}/webhooks': { scope: 'workspace:admin', allowed: 200, request: async () => ({ method: 'GET', url: v1('/webhooks') }) },
    'GET /api/v1/workspaces/{id}/webhooks/{webhookId}': { scope: 'workspace:admin', allowed: 200, request: async () => ({ method: 'GET', url: v1(`/webhooks/${await newWebhook()}`) }) },
    'PATCH /api/v1/workspaces/{id}/webhooks/{webhookId}': { scope: 'workspace:admin', allowed: 200, request: async () => ({ method: 'PATCH', url: v1(`/webhooks/${await newWebhook()}`), payload: { enabled: false } }) },
    'DELETE /api/v1/workspaces/{id}/webhooks/{webhookId}': { scope: 'workspace:admin', allowed: 204, request: async () => ({ method: 'DELETE', url: v1(`/webhooks/${await newWebhook()}`) }) },
    'GET /api/v1/workspaces/{id}/webhooks/{webhookId}/deliveries': { scope: 'workspace:admin', allowed: 200, request: async () => ({ method: 'GET', url: v1(`/webhooks/${await newWebhook()}/deliveries`) }) },
    'POST /api/v1/workspaces/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': { scope: 'workspace:admin', allowed: 202, request: async () => ({ method: 'POST', url: v1(`${await newDelivery()}/redeliver`) }) },
  };
  /** A HEAD route answers as its GET, without a body. */
  const rowOf = (method: string, path: string): Row | undefined => {
    const row = ROWS[`${method === 'HEAD' ? 'GET' : method} ${path}`];
    return row && method === 'HEAD' ? { ...row, request: async () => ({ ...(await row.request()), method: 'HEAD' }) } : row;
  };
  const keyRoutes = () => operations.filter(({ operation }) => operation.security!.some((requirement) => 'apiKey' in requirement));

  test('every route that takes API keys has a row here, and declares the scope the row says', () => {
    const routes = keyRoutes();
    assert.ok(routes.length >= Object.keys(ROWS).length, 'the document lists every row');
    for (const { method, path, operation } of routes) {
      const row = rowOf(method, path);
      assert.ok(row, `${method} ${path} takes API keys but has no row in this matrix`);
      assert.equal(operation['x-api-key-scope'], row.scope, `${method} ${path} documents its scope`);
    }
    for (const name of Object.keys(ROWS)) assert.ok(routes.some(({ method, path }) => `${method} ${path}` === name), `${name} is a route`);
  });

  for (const scope of API_KEY_SCOPES) {
    test(`a key with only ${scope}: 403 insufficient_scope and nothing changed where the route needs another scope, else what the route answers`, async () => {
      for (const { method, path } of keyRoutes()) {
        const row = rowOf(method, path)!;
        const options = await row.request();
        const rowsBefore = await accountAndLinkRows(t.deps);
        const response = await t.app.inject({ ...options, headers: { ...options.headers as object, ...bearer(keys[scope]) } });
        const where = `${method} ${path} with ${scope}: ${response.body}`;
        if (row.scope !== scope || row.allowed === 'permission_denied') {
          assert.equal(response.statusCode, 403, where);
          if (method !== 'HEAD') {
            const problem = response.json();
            assert.equal(problem.code, row.scope !== scope ? 'insufficient_scope' : 'permission_denied', where);
            if (row.scope !== scope) {
              assert.match(problem.detail, new RegExp(`"${row.scope}"`), where);
              assert.equal(response.headers['www-authenticate'], `Bearer error="insufficient_scope", scope="${row.scope}"`);
            }
          }
          assert.deepEqual(await accountAndLinkRows(t.deps), rowsBefore, `${method} ${path} with ${scope} changed the database`);
        } else {
          assert.equal(response.statusCode, method === 'HEAD' ? 200 : row.allowed, where);
        }
      }
    });
  }

  test('routes that take no API keys refuse every key, even one with all scopes, and change nothing', async () => {
    const others = operations.filter(({ operation }) => !operation.security!.some((requirement) => 'apiKey' in requirement));
    assert.ok(others.length > 10);
    for (const { method, path } of others) {
      const url = path.replace(/\{(\w+)\}/g, '1');
      const rowsBefore = await accountAndLinkRows(t.deps);
      const response = await t.app.inject({ method: method as InjectOptions['method'], url, headers: bearer(fullKey), ...(['POST', 'PATCH'].includes(method) ? { payload: {} } : {}) });
      // The operator's API hides itself (404); a body is checked before credentials (400).
      const expected = path.startsWith('/api/admin/') ? [404] : ['POST', 'PATCH'].includes(method) ? [400, 401] : [401];
      assert.ok(expected.includes(response.statusCode), `${method} ${url}: ${response.statusCode} ${response.body}`);
      assert.deepEqual(await accountAndLinkRows(t.deps), rowsBefore, `${method} ${url} changed the database`);
    }
  });

  test('an expired key is refused like an unknown one (401), and changes nothing', async () => {
    const expiring = await createScopedKey(t.app, owner.token, team, API_KEY_SCOPES, new Date(t.clock.now() + 60_000).toISOString());
    const create = { method: 'POST', url: v1('/links'), payload: { original_url: `https://example.com/${unique('late')}` } } as const;
    assert.equal((await t.app.inject({ ...create, headers: bearer(expiring) })).statusCode, 201, 'it works until it expires');
    t.clock.advance(60_000);
    for (const options of [create, { method: 'GET', url: v1('/links') }] as const) {
      const rowsBefore = await accountAndLinkRows(t.deps);
      const response = await t.app.inject({ ...options, payload: { original_url: `https://example.com/${unique('late')}` }, headers: bearer(expiring) });
      assert.equal(response.statusCode, 401, response.body);
      assert.equal(response.json().code, 'authentication_required');
      assert.equal(response.headers['www-authenticate'], 'Bearer');
      assert.deepEqual(await accountAndLinkRows(t.deps), rowsBefore);
    }
  });
});
