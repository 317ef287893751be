import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { suiteScope } from '../support/teardown.js';

describe('operational endpoints', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite); });

  test('/healthz answers 200 while the process runs', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  test('/readyz answers 200 when the database answers', async () => {
    const res = await t.app.inject({ url: '/readyz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ready' });
  });

  test('/openapi.json is an OpenAPI 3 document generated from the route schemas', async () => {
    const res = await t.app.inject({ url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.match(doc.openapi, /^3\./);
    const create = doc.paths['/api/urls/public'].post;
    assert.ok(create.requestBody.content['application/json'].schema.properties.url);
    assert.ok(create.responses['201']);
    assert.ok(create.responses['400']);
    assert.ok(doc.paths['/{code}'].get);
    assert.ok(doc.components.schemas.Problem);
  });

  test('/docs serves the interactive documentation page', async () => {
    const res = await t.app.inject({ url: '/docs' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /text\/html/);
  });

  test('an unknown API route is a 404 problem detail, not a short-code lookup', async () => {
    const res = await t.app.inject({ url: '/api/nothing-here' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, 'route_not_found');
  });
});
