import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartFile } from '../support/multipart.js';
import { createWorkspace } from '../support/owned-links.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const BITLY = fs.readFileSync('test/fixtures/imports/bitly-api.csv');

describe('POST /api/v1/workspaces/{id}/imports', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let member: RegisteredUser;
  let stranger: RegisteredUser;
  let workspaceId: number;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { IMPORT_MAX_BYTES: '4096', RATE_LIMIT_IMPORT: '0' });
    [owner, member, stranger] = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)];
    workspaceId = await createWorkspace(t.app, owner.token, 'imports');
    const added = await t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${workspaceId}/members`, headers: bearer(owner.token), payload: { email: member.user.email, role: 'member' } });
    assert.equal(added.statusCode, 201, added.body);
  });

  const upload = (id: number, headers: Record<string, string>, content: string | Buffer = BITLY, query = '', field?: string) => {
    const body = multipartFile(content, { field });
    return t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${id}/imports${query}`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };
  const linkCount = async () => Number((await t.deps.database.db.selectFrom('links').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  test('a dry run reports what would happen and writes nothing', async () => {
    const response = await upload(workspaceId, bearer(owner.token), BITLY, '?dry_run=true');
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual({ ...(response.json() as object), rejections: undefined }, { format: 'bitly', dry_run: true, rows: 3, created: 2, existing: 0, rejected: 1, rejections: undefined });
    assert.equal(await linkCount(), 0);
    assert.equal((await t.app.inject({ url: '/3xYzAbc' })).statusCode, 404);
  });

  test('an owner imports a Bitly export: each short code keeps working, a bad row is rejected with its reason', async () => {
    const response = await upload(workspaceId, bearer(owner.token));
    assert.equal(response.statusCode, 200, response.body);
    const report = response.json();
    assert.equal(report.created, 2);
    assert.deepEqual(report.rejections, [{ row: 3, code: '2bAdUrl', reason: 'url_scheme_not_allowed', detail: 'Only http and https URLs can be shortened.' }]);
    const redirect = await t.app.inject({ url: '/3xYzAbc' });
    assert.equal(redirect.statusCode, 301);
    assert.equal(redirect.headers.location, 'https://example.com/spring?utm_source=bitly');
    assert.equal((await t.app.inject({ url: '/docs-start' })).headers.location, 'https://example.org/docs/getting-started');
    assert.equal((await t.app.inject({ url: '/2bAdUrl' })).statusCode, 404, 'the rejected row left nothing behind');
  });

  test('the same file again creates nothing and reports its rows as existing', async () => {
    const before = await linkCount();
    const response = await upload(workspaceId, bearer(owner.token));
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual([response.json().created, response.json().existing, response.json().rejected], [0, 2, 1]);
    assert.equal(await linkCount(), before);
  });

  test('the same codes into another workspace are rejected as taken, not moved', async () => {
    const response = await upload(owner.personalWorkspaceId, bearer(owner.token));
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json().rejections.map((r: { reason: string }) => r.reason).sort(), ['code_taken', 'code_taken', 'url_scheme_not_allowed']);
  });

  test('an API key of the workspace may import (it acts as admin)', async () => {
    const key = await createApiKey(t.app, owner.token, workspaceId);
    const response = await upload(workspaceId, bearer(key), 'keyword,url\nkey-made,https://example.com/key\n');
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().created, 1);
  });

  test('a member gets 403, a stranger 404, no token 401; nothing is written', async () => {
    const before = await linkCount();
    const other = 'keyword,url\nnot-mine,https://example.com/nope\n';
    const cases: Array<[Record<string, string>, number, string]> = [
      [bearer(member.token), 403, 'permission_denied'],
      [bearer(stranger.token), 404, 'workspace_not_found'],
      [{}, 401, 'authentication_required'],
    ];
    for (const [headers, status, code] of cases) {
      const response = await upload(workspaceId, headers, other);
      assert.equal(response.statusCode, status, response.body);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      assert.equal(response.json().code, code);
    }
    assert.equal((await upload(999_999, bearer(owner.token), other)).statusCode, 404);
    assert.equal(await linkCount(), before);
  });

  test('a file of no known format is a 400 problem', async () => {
    const response = await upload(workspaceId, bearer(owner.token), 'name,address\nx,y\n');
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().code, 'import_format_invalid');
    assert.match(response.json().detail, /name,address/);
  });

  test('a format forced on a file without its columns is a 400 problem', async () => {
    const response = await upload(workspaceId, bearer(owner.token), BITLY, '?format=yourls');
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().code, 'import_format_invalid');
  });

  test('a file over IMPORT_MAX_BYTES is a 413 problem and nothing of it is imported', async () => {
    const before = await linkCount();
    const rows = Array.from({ length: 200 }, (_, i) => `big-${i},https://example.com/big/${i}`).join('\n');
    const response = await upload(workspaceId, bearer(owner.token), `keyword,url\n${rows}\n`);
    assert.equal(response.statusCode, 413, response.body);
    assert.equal(response.json().code, 'body_too_large');
    assert.equal(await linkCount(), before);
  });

  test('a JSON body is 415, and a multipart body without a "file" part is 400', async () => {
    const json = await t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${workspaceId}/imports`, headers: bearer(owner.token), payload: { file: 'x' } });
    assert.equal(json.statusCode, 415, json.body);
    assert.equal(json.json().code, 'media_type_unsupported');
    const wrongPart = await upload(workspaceId, bearer(owner.token), BITLY, '', 'upload');
    assert.equal(wrongPart.statusCode, 400, wrongPart.body);
    assert.equal(wrongPart.json().code, 'import_file_missing');
  });

  test('the OpenAPI document describes the upload as multipart/form-data with the report as its answer', async () => {
    const operation = (await t.app.inject({ url: '/openapi.json' })).json().paths['/api/v1/workspaces/{id}/imports'].post;
    assert.ok(operation.requestBody.content['multipart/form-data'].schema.properties.file);
    assert.deepEqual(Object.keys(operation.responses).sort(), ['200', '400', '401', '403', '404', '408', '413', '415', '429', '503']);
  });

  test('other routes still refuse multipart bodies with 415', async () => {
    const body = multipartFile('x');
    const response = await t.app.inject({ method: 'POST', url: '/api/urls', headers: { ...bearer(owner.token), ...body.headers }, payload: body.payload });
    assert.equal(response.statusCode, 415, response.body);
  });
});
