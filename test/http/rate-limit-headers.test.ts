import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createApiKey, registerUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** One structured-field item of the RateLimit headers: `"name";key=value;…`. */
function parseField(value: unknown): { name: string; params: Record<string, number> } {
  assert.equal(typeof value, 'string', 'the header is there');
  const [name, ...params] = (value as string).split(';');
  return { name: JSON.parse(name!) as string, params: Object.fromEntries(params.map((p) => { const [k, v] = p.split('='); return [k!, Number(v)]; })) };
}

/** ADR 0032: rate-limited API routes answer the IETF RateLimit and RateLimit-Policy fields; redirects never do. */
describe('RateLimit and RateLimit-Policy headers', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_ANON: '3', RATE_LIMIT_REDIRECTS: '100' }); });

  const shorten = (n: number) => t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: `https://example.com/limited/${n}` } });

  test('they name the policy, count down with each request, and match the 429 and its Retry-After', async () => {
    const answers = [];
    for (let n = 0; n < 4; n++) answers.push(await shorten(n));
    assert.deepEqual(answers.map((a) => a.statusCode), [201, 201, 201, 429]);
    for (const answer of answers) {
      assert.deepEqual(parseField(answer.headers['ratelimit-policy']), { name: 'anon', params: { q: 3, w: 60 } });
    }
    const fields = answers.map((a) => parseField(a.headers.ratelimit));
    assert.deepEqual(fields.map((f) => f.name), ['anon', 'anon', 'anon', 'anon']);
    assert.deepEqual(fields.map((f) => f.params.r), [2, 1, 0, 0]);
    for (const { params } of fields) assert.ok(params.t! >= 1 && params.t! <= 60, `t=${params.t} is within the window`);
    const refused = answers[3]!;
    assert.equal(refused.json().code, 'rate_limit_exceeded');
    assert.equal(fields[3]!.params.t, Number(refused.headers['retry-after']), 't is the Retry-After of the 429');
  });

  test('a redirect carries none', async () => {
    const redirect = await t.app.inject({ url: '/nolink1' });
    assert.equal(redirect.statusCode, 404);
    assert.equal(redirect.headers.ratelimit, undefined);
    assert.equal(redirect.headers['ratelimit-policy'], undefined);
  });
});

/** Every other API route: RATE_LIMIT_API per minute per caller, as the `api` policy. */
describe('the api policy: every other API route, counted per caller', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_API: '3' }); });

  test('each API key, token and address has its own count; the fourth request in a minute is a 429', async () => {
    const user = await registerUser(t.app);
    const keyA = await createApiKey(t.app, user.token, user.personalWorkspaceId, 'a');
    const keyB = await createApiKey(t.app, user.token, user.personalWorkspaceId, 'b');
    const links = (key: string) => t.app.inject({ url: `/api/v1/workspaces/${user.personalWorkspaceId}/links`, headers: { authorization: `Bearer ${key}` } });
    const answersA = [await links(keyA), await links(keyA), await links(keyA), await links(keyA)];
    assert.deepEqual(answersA.map((a) => a.statusCode), [200, 200, 200, 429]);
    assert.deepEqual(parseField(answersA[0]!.headers['ratelimit-policy']), { name: 'api', params: { q: 3, w: 60 } });
    assert.deepEqual(answersA.map((a) => parseField(a.headers.ratelimit).params.r), [2, 1, 0, 0]);
    assert.equal(answersA[3]!.json().code, 'rate_limit_exceeded');
    assert.equal((await links(keyB)).statusCode, 200, 'another key counts on its own');
    const anonymous = await t.app.inject({ url: '/api/instance' });
    assert.equal(anonymous.statusCode, 200, 'so does an address without a credential');
    assert.equal(parseField(anonymous.headers.ratelimit).params.r, 2);
  });

  test('RATE_LIMIT_API=0 turns it off: no limit, no fields', async () => {
    const off = await createTestApp(suite, { RATE_LIMIT_API: '0' });
    for (let n = 0; n < 5; n++) {
      const answer = await off.app.inject({ url: '/api/instance' });
      assert.equal(answer.statusCode, 200);
      assert.equal(answer.headers.ratelimit, undefined);
    }
  });
});
