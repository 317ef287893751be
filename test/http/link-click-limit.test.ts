import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allLinkRows, createLink, createWorkspace, linkRow, postLink } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';
import { insertLink } from '../support/links.js';

const PERSON = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const PREVIEW_BOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
// A mail scanner's User-Agent as isbot knows it (the visit classifier's `bot`).
const MAIL_SCANNER = 'Microsoft Office Protection';

describe('a click limit (maxClicks, clicksLeft) and its fallback URL', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  const follow = (code: string, userAgent = PERSON, method: 'GET' | 'HEAD' = 'GET', accept = 'application/json') =>
    t.app.inject({ method, url: `/${code}`, headers: { 'user-agent': userAgent, accept } });
  const patch = (token: string, id: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/api/urls/${id}`, headers: bearer(token), payload });
  const getLink = async (token: string, id: number) => (await t.app.inject({ url: `/api/urls/${id}`, headers: bearer(token) })).json();

  test('exactly maxClicks people are redirected; the next one gets 410 limit_reached, in JSON and as a page', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/limited', maxClicks: 3 });
    assert.deepEqual([link.maxClicks, link.clicksLeft, link.fallbackUrl], [3, 3, null]);
    for (let i = 0; i < 3; i++) {
      const res = await follow(link.shortCode);
      assert.equal(res.statusCode, 302, `person ${i + 1}`);
      assert.equal(res.headers.location, 'https://example.com/limited');
      assert.equal(res.headers['cache-control'], 'private, no-store');
    }
    const json = await follow(link.shortCode);
    assert.equal(json.statusCode, 410);
    assert.equal(json.json().code, 'link_limit_reached');
    assert.equal(json.json().reason, 'limit_reached');
    const page = await follow(link.shortCode, PERSON, 'GET', 'text/html');
    assert.equal(page.statusCode, 410);
    assert.match(page.body, /This link has been used up/);
    const read = await getLink(user.token, link.id);
    assert.deepEqual([read.maxClicks, read.clicksLeft], [3, 0]);
  });

  test('preview bots, crawlers, a mail scanner and HEAD take no click, and are answered as people once it is used up', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/scanned', maxClicks: 1 });
    for (const agent of [PREVIEW_BOT, CRAWLER, MAIL_SCANNER, '']) {
      const res = await follow(link.shortCode, agent);
      assert.equal(res.statusCode, 302, agent);
      assert.equal(res.headers.location, 'https://example.com/scanned');
    }
    assert.equal((await follow(link.shortCode, PERSON, 'HEAD')).statusCode, 302);
    assert.equal((await getLink(user.token, link.id)).clicksLeft, 1);
    assert.equal((await follow(link.shortCode)).statusCode, 302, 'the one person');
    assert.equal((await getLink(user.token, link.id)).clicksLeft, 0);
    for (const agent of [PREVIEW_BOT, MAIL_SCANNER]) assert.equal((await follow(link.shortCode, agent)).statusCode, 410, agent);
    assert.equal((await follow(link.shortCode, PERSON, 'HEAD')).statusCode, 410);
  });

  test('a cached plain link answers without a statement; a limited one runs exactly one, the conditional decrement', async () => {
    const user = await registerUser(t.app);
    const plain = await createLink(t.app, user.token, { url: 'https://example.com/plain-hot-path' });
    const limited = await createLink(t.app, user.token, { url: 'https://example.com/limited-hot-path', maxClicks: 5 });
    await follow(plain.shortCode, CRAWLER);
    await follow(limited.shortCode, CRAWLER);
    t.statements.length = 0;
    assert.equal((await follow(plain.shortCode)).statusCode, 301);
    assert.deepEqual(t.statements, [], 'the plain link: none of the click limit runs');
    assert.equal((await follow(limited.shortCode)).statusCode, 302);
    // The SQLite writer thread commits its queued writes together (ADR 0010): its COMMIT is not the click's own statement.
    const statements = t.statements.filter((sql) => !/^(BEGIN|COMMIT)\b/i.test(sql));
    assert.equal(statements.length, 1, JSON.stringify(t.statements));
    assert.match(statements[0]!, /^update "links" set "clicks_left" = "clicks_left" - (\?|\$1) where "id" = (\?|\$2) and "clicks_left" > (\?|\$3) returning "clicks_left"$/);
  });

  test('a used-up link with a fallback URL sends people there with a 302', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/one-time', maxClicks: 1, fallbackUrl: 'https://example.com/sold-out' });
    assert.equal(link.fallbackUrl, 'https://example.com/sold-out');
    assert.equal((await follow(link.shortCode)).headers.location, 'https://example.com/one-time');
    const after = await follow(link.shortCode);
    assert.equal(after.statusCode, 302);
    assert.equal(after.headers.location, 'https://example.com/sold-out');
  });

  test('every redirect of a limited link is recorded as a visit, people and bots by class; the fallback is not', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/counted', maxClicks: 2, fallbackUrl: 'https://example.com/after' });
    for (const agent of [PERSON, PERSON, PERSON, PREVIEW_BOT]) await follow(link.shortCode, agent);
    await t.deps.analytics!.flusher.flushNow();
    const row = await linkRow(t.deps, link.id);
    assert.deepEqual([Number(row.redirect_count), Number(row.human_count), Number(row.preview_count)], [2, 2, 0],
      'two people redirected; the third went to the fallback and the preview agent met a used-up link');
  });

  test('PATCH sets a new limit with all of its clicks, removes it, and merges the fallback URL into the other options', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/edited', maxClicks: 1 });
    await follow(link.shortCode);
    assert.equal((await follow(link.shortCode)).statusCode, 410);
    const reset = (await patch(user.token, link.id, { maxClicks: 5 })).json();
    assert.deepEqual([reset.maxClicks, reset.clicksLeft], [5, 5]);
    assert.equal((await follow(link.shortCode)).statusCode, 302, 'the edit reaches the redirect at once');
    await patch(user.token, link.id, { preview: { title: 'Kept' } });
    const withFallback = (await patch(user.token, link.id, { fallbackUrl: 'https://example.com/fallback' })).json();
    assert.equal(withFallback.fallbackUrl, 'https://example.com/fallback');
    assert.deepEqual(JSON.parse((await linkRow(t.deps, link.id)).options!), { preview: { title: 'Kept' }, fallbackUrl: 'https://example.com/fallback' });
    await patch(user.token, link.id, { fallbackUrl: null, maxClicks: null });
    const row = await linkRow(t.deps, link.id);
    assert.deepEqual([row.max_clicks, row.clicks_left, JSON.parse(row.options!)], [null, null, { preview: { title: 'Kept' } }]);
    for (let i = 0; i < 3; i++) assert.equal((await follow(link.shortCode)).statusCode, 302, 'no limit any more');
  });

  test('the workspace API v1 takes max_clicks and fallback_url and answers clicks_left', async () => {
    const user = await registerUser(t.app);
    const teamId = await createWorkspace(t.app, user.token);
    const created = await t.app.inject({
      method: 'POST', url: `/api/v1/workspaces/${teamId}/links`, headers: bearer(user.token),
      payload: { original_url: 'https://example.com/v1-limit', max_clicks: 2, fallback_url: 'https://example.com/v1-after' },
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual([created.json().max_clicks, created.json().clicks_left, created.json().fallback_url], [2, 2, 'https://example.com/v1-after']);
    const edited = await t.app.inject({
      method: 'PATCH', url: `/api/v1/workspaces/${teamId}/links/${created.json().short_code}`, headers: bearer(user.token), payload: { max_clicks: 7 },
    });
    assert.deepEqual([edited.json().max_clicks, edited.json().clicks_left], [7, 7]);
  });

  test('a bad click limit or fallback URL answers 400 naming the field and changes nothing', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://example.com/untouched', maxClicks: 2 });
    const before = await allLinkRows(t.deps);
    for (const maxClicks of [0, -1, 1.5, 1_000_000_001, '3']) {
      for (const res of [await postLink(t.app, user.token, { url: 'https://example.com/bad-limit', maxClicks }), await patch(user.token, link.id, { maxClicks })]) {
        assert.equal(res.statusCode, 400, `maxClicks ${maxClicks}`);
        assert.match(res.json().detail, /maxClicks/);
      }
    }
    const badUrls = [
      ['http://10.0.0.1/inside', 'url_private_address_not_allowed'],
      ['ftp://example.com/file', 'url_scheme_not_allowed'],
      ['http://sho.rt/abc', 'url_loop_not_allowed'],
      ['not a url', 'url_whitespace_not_allowed'],
    ];
    for (const [fallbackUrl, code] of badUrls) {
      for (const res of [await postLink(t.app, user.token, { url: 'https://example.com/bad-fallback', fallbackUrl }), await patch(user.token, link.id, { fallbackUrl })]) {
        assert.equal(res.statusCode, 400, fallbackUrl);
        assert.equal(res.json().code, code, fallbackUrl);
        assert.equal(res.json().field, 'fallbackUrl');
        assert.match(res.json().detail, /^fallbackUrl: /);
      }
    }
    assert.deepEqual(await allLinkRows(t.deps), before);
  });
});

describe('a limited link when the database cannot be reached', () => {
  test('a person gets 503 with Retry-After, although the link is cached, since no click can be taken', async (context) => {
    const t = await createTestApp(context);
    const link = await insertLink(t.deps, { maxClicks: 5 });
    assert.equal((await t.app.inject({ url: `/${link.code}`, headers: { 'user-agent': PERSON } })).statusCode, 302);
    await t.deps.database.close();
    const res = await t.app.inject({ url: `/${link.code}`, headers: { 'user-agent': PERSON } });
    assert.equal(res.statusCode, 503);
    assert.equal(res.headers['retry-after'], '5');
    assert.equal(res.json().code, 'store_unavailable');
  });
});
