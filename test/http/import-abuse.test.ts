import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { importLinks } from '../../src/links/import-links.js';
import type { ImportCandidate } from '../../src/portability/import-candidate.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartFile } from '../support/multipart.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope, type TeardownScope } from '../support/teardown.js';

const BOUNDARY = 'linkforge-abuse';
const FILE_HEAD = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="links.csv"\r\nContent-Type: text/csv\r\n\r\n`;
const MULTIPART = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

const linkCount = async (t: TestApp) => Number((await t.deps.database.db.selectFrom('links').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const spoolFiles = (t: TestApp) => fs.readdirSync(path.join(t.dataDir, 'import-spool'));

function importUrl(workspaceId: number, query = ''): string {
  return `/api/v1/workspaces/${workspaceId}/imports${query}`;
}

interface Answer { readonly status: number; readonly headers: http.IncomingHttpHeaders; readonly body: string }

/**
 * An upload over a real socket whose body the test writes by hand and may never finish (inject
 * reads a streamed payload whole before the route sees it).
 */
async function openUpload(t: TestApp, user: RegisteredUser) {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: importUrl(user.personalWorkspaceId), headers: { ...bearer(user.token), ...MULTIPART } });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk) => { body += chunk; }).on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
  });
  request.write(`${FILE_HEAD}keyword,url\n`);
  return { answer, finish: () => request.end(`\r\n--${BOUNDARY}--\r\n`), abort: () => request.destroy() };
}

/** Resolves once the upload has reached the spool, so that its import counts as running. */
async function untilSpooling(t: TestApp): Promise<void> {
  for (let i = 0; i < 500 && spoolFiles(t).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(spoolFiles(t).length, 1, 'the upload reached the spool');
}

describe('imports refuse hostile files and uploads with a 4xx, and write nothing', () => {
  let t: TestApp;
  let user: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_IMPORT: '0', IMPORT_MAX_ROWS: '5', IMPORT_MAX_FIELDS: '8', IMPORT_MAX_ROW_BYTES: '2048', IMPORT_MAX_BYTES: '262144' });
    user = await registerUser(t.app);
  });

  const upload = (content: string | Buffer, query = '') => {
    const body = multipartFile(content);
    return t.app.inject({ method: 'POST', url: importUrl(user.personalWorkspaceId, query), headers: { ...bearer(user.token), ...body.headers }, payload: body.payload });
  };
  const assertProblem = async (response: Awaited<ReturnType<typeof upload>>, status: number, code: string) => {
    assert.equal(response.statusCode, status, response.body);
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
    assert.equal(response.json().code, code);
    assert.equal(await linkCount(t), 0, 'nothing was imported');
    assert.deepEqual(spoolFiles(t), [], 'the spool is empty');
  };

  test('a multipart body without a boundary is a 400 problem', async () => {
    const response = await t.app.inject({
      method: 'POST', url: importUrl(user.personalWorkspaceId), headers: { ...bearer(user.token), 'content-type': 'multipart/form-data' },
      payload: `${FILE_HEAD}keyword,url\r\n--${BOUNDARY}--\r\n`,
    });
    await assertProblem(response, 400, 'multipart_invalid');
  });

  test('a part cut before its boundary is a 400 problem', async () => {
    const response = await t.app.inject({
      method: 'POST', url: importUrl(user.personalWorkspaceId), headers: { ...bearer(user.token), ...MULTIPART }, payload: `${FILE_HEAD}keyword,url\r\nab,https://exa`,
    });
    await assertProblem(response, 400, 'multipart_invalid');
  });

  test('a body that ends without its closing boundary is answered 400', async () => {
    const response = await t.app.inject({
      method: 'POST', url: importUrl(user.personalWorkspaceId), headers: { ...bearer(user.token), ...MULTIPART }, payload: `${FILE_HEAD}keyword,url\r\nab,https://example.com/a\r\n`,
    });
    await assertProblem(response, 400, 'multipart_invalid');
  });

  test('Kutt JSON nested 100,000 arrays deep is a 400 problem, not a 500', async () => {
    await assertProblem(await upload(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, '?format=kutt-json'), 400, 'import_format_invalid');
  });

  test('a file with more rows than IMPORT_MAX_ROWS is a 413 problem, and none of its rows goes in', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => `row-${i},https://example.com/${i}`).join('\n');
    const response = await upload(`keyword,url\n${rows}\n`);
    await assertProblem(response, 413, 'import_too_large');
    assert.match(response.json().detail, /more than 5 rows/);
  });

  test('a row with more fields than IMPORT_MAX_FIELDS, or longer than IMPORT_MAX_ROW_BYTES, is a 413 problem', async () => {
    await assertProblem(await upload(`keyword,url\nab,https://example.com/a${',x'.repeat(10)}\n`), 413, 'import_too_large');
    await assertProblem(await upload(`keyword,url\nab,https://example.com/${'a'.repeat(3000)}\n`), 413, 'import_too_large');
    await assertProblem(await upload(`[{"address":"ab","target":"https://example.com/${'a'.repeat(3000)}"}]`), 413, 'import_too_large');
    await assertProblem(await upload(`{"format":"linkforge","version":1}\n{"code":"ab","url":"https://example.com/${'a'.repeat(3000)}","status":"ACTIVE"}\n`), 413, 'import_too_large');
  });

  test('a file that is not UTF-8 is a 400 problem: its bytes are never replaced', async () => {
    const latin1 = Buffer.concat([Buffer.from('keyword,url\ncaf'), Buffer.from([0xe9]), Buffer.from(',https://example.com/caf\n')]);
    await assertProblem(await upload(latin1), 400, 'import_not_utf8');
  });

  test('a stalled upload is answered 408 and leaves nothing in the spool', async (context) => {
    const stalled = await createTestApp(context, { IMPORT_UPLOAD_IDLE_TIMEOUT: '200ms' });
      const owner = await registerUser(stalled.app);
      const upload = await openUpload(stalled, owner);
      const response = await upload.answer;
      assert.equal(response.status, 408, response.body);
      assert.equal(JSON.parse(response.body).code, 'upload_timeout');
      assert.equal(response.headers.connection, 'close');
      assert.deepEqual(spoolFiles(stalled), []);
      upload.abort();
  });

  test('an upload over IMPORT_MAX_BYTES is a 413 that closes the connection and leaves nothing in the spool', async () => {
    const big = `keyword,url\n${'x,https://example.com/\n'.repeat(15_000)}`;
    const response = await upload(big);
    await assertProblem(response, 413, 'body_too_large');
    assert.equal(response.headers.connection, 'close');
  });
});

describe('imported visits are held to the rules of live ones', () => {
  let t: TestApp;
  let user: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_IMPORT: '0' });
    user = await registerUser(t.app);
  });

  const visit = { visited_at: '2024-01-01T00:00:00.000Z', visitor_class: 'human', latency_ms: 3, referrer_host: 'example.org', browser: 'Chrome', os: 'Windows', device: 'desktop' };
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['a 100,000-character referrer host', { code: 'v-host' }, { referrer_host: `${'a'.repeat(100_000)}.com` }],
    ['markup as a browser', { code: 'v-markup' }, { browser: '<script>alert(1)</script>' }],
    ['an unknown device', { code: 'v-device' }, { device: 'toaster' }],
    ['a city of 101 characters', { code: 'v-city' }, { city: 'C'.repeat(101) }],
    ['a region with a line break', { code: 'v-region' }, { region: 'North\nHolland' }],
    ['a latency of a year', { code: 'v-latency' }, { latency_ms: 31_536_000_000 }],
    ['a visit in the year 275760', { code: 'v-year' }, { visited_at: '+275760-09-13T00:00:00.000Z' }],
    ['a redirect count of 2^53', { code: 'v-count', redirect_count: 2 ** 53 }, {}],
  ];

  test('each bad row is rejected with its reason; the good one goes in', async () => {
    const lines = cases.map(([, link, bad], i) => JSON.stringify({ url: `https://example.com/v/${i}`, status: 'ACTIVE', ...link, visits: [{ ...visit, ...bad }] }));
    lines.push(JSON.stringify({ code: 'v-good', url: 'https://example.com/v/good', status: 'ACTIVE', visits: [visit] }));
    const body = multipartFile(`{"format":"linkforge","version":1}\n${lines.join('\n')}\n`);
    const response = await t.app.inject({ method: 'POST', url: importUrl(user.personalWorkspaceId), headers: { ...bearer(user.token), ...body.headers }, payload: body.payload });
    assert.equal(response.statusCode, 200, response.body);
    const report = response.json();
    assert.equal(report.created, 1);
    assert.deepEqual(report.rejections.map((r: { code: string; reason: string }) => [r.code, r.reason]), cases.map(([, link]) => [link.code, 'row_unreadable']));
    for (const rejection of report.rejections as Array<{ detail: string }>) assert.ok(rejection.detail.length < 200, rejection.detail);
    assert.equal((await t.app.inject({ url: '/v-good' })).statusCode, 301);
    assert.equal((await t.app.inject({ url: '/v-host' })).statusCode, 404);
  });
});

type Check = (t: TestApp, alice: RegisteredUser, bob: RegisteredUser) => Promise<void>;

/** An app where Alice's import is running (its upload open) during `check`; `afterwards` runs once it is answered. */
async function whileAnImportRuns(scope: TeardownScope, env: Record<string, string>, check: Check, afterwards?: Check): Promise<void> {
  const t = await createTestApp(scope, { RATE_LIMIT_IMPORT: '0', ...env });
    const [alice, bob] = [await registerUser(t.app), await registerUser(t.app)];
    const running = await openUpload(t, alice);
    await untilSpooling(t);
    await check(t, alice, bob);
    running.finish();
    assert.equal((await running.answer).status, 200);
    await afterwards?.(t, alice, bob);
}

function injectImport(t: TestApp, user: RegisteredUser, token = user.token) {
  const body = multipartFile(`keyword,url\nlink-${Math.random().toString(36).slice(2)},https://example.com/${Math.random()}\n`);
  return t.app.inject({ method: 'POST', url: importUrl(user.personalWorkspaceId), headers: { ...bearer(token), ...body.headers }, payload: body.payload });
}

describe('imports are admitted one per user, a few per instance, and rate-limited per user', () => {
  test('a second import by the same user while one runs is a 429 with Retry-After; another user may import', async (context) => {
    await whileAnImportRuns(context, { IMPORT_MAX_RUNNING: '2' }, async (t, alice, bob) => {
      const refused = await injectImport(t, alice);
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(refused.json().code, 'import_already_running');
      assert.ok(Number(refused.headers['retry-after']) > 0);
      const elsewhere = await injectImport(t, bob);
      assert.equal(elsewhere.statusCode, 200, elsewhere.body);
    }, async (t, alice) => {
      assert.equal((await injectImport(t, alice)).statusCode, 200, 'the slot is given back once the first import is answered');
    });
  });

  test('past IMPORT_MAX_RUNNING on the instance, another user\'s import is a 503 with Retry-After', async (context) => {
    await whileAnImportRuns(context, { IMPORT_MAX_RUNNING: '1' }, async (t, _alice, bob) => {
      const refused = await injectImport(t, bob);
      assert.equal(refused.statusCode, 503, refused.body);
      assert.equal(refused.json().code, 'import_capacity_reached');
      assert.ok(Number(refused.headers['retry-after']) > 0);
    });
  });

  test('past RATE_LIMIT_IMPORT per minute a user gets 429 with Retry-After, counted per user whatever the credential', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_IMPORT: '2' });
      const [alice, bob] = [await registerUser(t.app), await registerUser(t.app)];
      const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: alice.user.email, password: 'correct horse battery' } });
      const secondToken = login.json().token as string;
      const send = (who: RegisteredUser, token = who.token) => injectImport(t, who, token);
      assert.equal((await send(alice)).statusCode, 200);
      assert.equal((await send(alice, secondToken)).statusCode, 200);
      const limited = await send(alice, secondToken);
      assert.equal(limited.statusCode, 429, limited.body);
      assert.equal(limited.json().code, 'rate_limit_exceeded');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal((await send(bob)).statusCode, 200, 'another user is not limited');
  });
});

describe('the import spool', () => {
  test('lives under DATA_DIR and is emptied when the server starts', async (context) => {
    const first = await createTestApp(context);
    const dataDir = first.dataDir;
    await first.app.close();
    await first.deps.close();
    await first.postgres?.drop();
    fs.writeFileSync(path.join(dataDir, 'import-spool', 'left-by-a-crash'), 'x'.repeat(1024));
    const second = await createTestApp(context, {}, { dataDir });
      assert.deepEqual(spoolFiles(second), []);
  });
});

describe('an import leaves the event loop to others', () => {
  test('while it reads rows, even rejected ones, callbacks queued behind it run before it ends', async (context) => {
    const t = await createTestApp(context);
      const user = await registerUser(t.app);
      const total = 50_000;
      let read = 0;
      async function* rejectedRows(): AsyncGenerator<ImportCandidate> {
        for (let row = 1; row <= total; row++) {
          read = row;
          yield { row, code: '', url: '', fields: {}, problem: 'unreadable' };
        }
      }
      let readWhenCallbackRan: number | undefined;
      setImmediate(() => { readWhenCallbackRan = read; });
      const report = await importLinks(t.deps.links.transfer, { domain: t.deps.links.transfer.domain, workspaceId: user.personalWorkspaceId, ownerId: user.user.id }, { format: 'yourls', candidates: rejectedRows() });
      assert.equal(report.rejected, total);
      assert.ok(readWhenCallbackRan !== undefined && readWhenCallbackRan < total, `the callback ran after ${readWhenCallbackRan} of ${total} rows`);
  });
});
