import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allLinkRows, createLink, createWorkspace, linkRow, postLink, visit } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const AGENTS = {
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  x: 'Twitterbot/1.0',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
};
const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const HOSTILE_TITLE = '"><script>alert(1)</script> & more';

describe('link previews (preview)', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  const fetchAs = (code: string, userAgent: string, accept?: string) =>
    t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': userAgent, ...(accept === undefined ? {} : { accept }) } });
  const patch = (token: string, id: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/api/urls/${id}`, headers: bearer(token), payload });

  test('link-preview agents get a 200 page with the escaped card and noindex; a browser is redirected', async () => {
    const user = await registerUser(t.app);
    const preview = { title: HOSTILE_TITLE, description: 'Half off, this week', image: 'https://cdn.example/card.png' };
    const link = await createLink(t.app, user.token, { url: 'https://shop.example/sale', preview });
    assert.deepEqual(link.preview, preview);
    for (const [agent, userAgent] of Object.entries(AGENTS)) {
      const page = await fetchAs(link.shortCode, userAgent, '*/*');
      assert.equal(page.statusCode, 200, agent);
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8', agent);
      assert.equal(page.headers['x-robots-tag'], 'noindex', agent);
      assert.equal(page.headers['cache-control'], 'no-store', agent);
      assert.match(String(page.headers['content-security-policy']), /^default-src 'none'; style-src 'self'/, agent);
      assert.ok(page.body.includes('<meta property="og:title" content="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62; &#38; more">'), agent);
      assert.ok(page.body.includes('<meta property="og:image" content="https://cdn.example/card.png">'), agent);
      assert.ok(page.body.includes(`<meta property="og:url" content="http://sho.rt/${link.shortCode}">`), agent);
      assert.ok(page.body.includes('<meta name="twitter:card" content="summary_large_image">'), agent);
      assert.ok(page.body.includes('<meta name="robots" content="noindex">'), agent);
      assert.ok(page.body.includes('href="https://shop.example/sale"'), agent);
      assert.doesNotMatch(page.body, /<script/, agent);
    }
    const noAccept = await fetchAs(link.shortCode, AGENTS.x);
    assert.equal(noAccept.headers['content-type'], 'text/html; charset=utf-8', 'an agent that sends no Accept gets the page too');
    const person = await fetchAs(link.shortCode, BROWSER, 'text/html,application/xhtml+xml,*/*;q=0.8');
    assert.equal(person.statusCode, 302, 'a link with options never redirects permanently (ADR 0031)');
    assert.equal(person.headers.location, 'https://shop.example/sale');
  });

  test('a client that asks for JSON by name gets the preview as JSON', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://shop.example/json', preview: { title: 'T' } });
    const answer = await fetchAs(link.shortCode, AGENTS.slack, 'application/json');
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(answer.json(), { url: `http://sho.rt/${link.shortCode}`, title: 'T' });
  });

  test('a link without a preview redirects the agents as before', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://shop.example/plain' });
    assert.equal(link.preview, null);
    for (const userAgent of Object.values(AGENTS)) {
      const answer = await fetchAs(link.shortCode, userAgent, '*/*');
      assert.equal(answer.statusCode, 301);
      assert.equal(answer.headers.location, 'https://shop.example/plain');
    }
  });

  test('a password link\'s preview page names no destination', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://shop.example/secret-place', preview: { title: 'Members only' } });
    await t.deps.database.db.updateTable('links').set({ password_hash: '$2b$10$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01' }).where('id', '=', link.id).execute();
    const page = await fetchAs(link.shortCode, AGENTS.facebook, '*/*');
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes('Members only'));
    assert.doesNotMatch(page.body, /secret-place/);
  });

  test('a gone link answers the agents as a plain one would', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://shop.example/gone', preview: { title: 'Gone soon' } });
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/urls/${link.id}`, headers: bearer(user.token) })).statusCode, 204);
    assert.equal((await fetchAs(link.shortCode, AGENTS.slack, '*/*')).statusCode, 410);
  });

  test('a preview fetch is recorded and counted as a preview, not a person', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://shop.example/counted', preview: { description: 'D' } });
    assert.equal((await fetchAs(link.shortCode, AGENTS.slack, '*/*')).statusCode, 200);
    assert.equal((await fetchAs(link.shortCode, BROWSER)).statusCode, 302);
    await t.deps.analytics!.flusher.flushNow();
    const row = await linkRow(t.deps, link.id);
    assert.deepEqual([Number(row.redirect_count), Number(row.preview_count), Number(row.human_count)], [2, 1, 1]);
  });

  test('bad input is a 400 naming the part, and nothing is written', async () => {
    const user = await registerUser(t.app);
    const before = await allLinkRows(t.deps);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ title: 'a'.repeat(201) }, 'preview_invalid', 'preview.title'],
      [{ description: 'a'.repeat(501) }, 'preview_invalid', 'preview.description'],
      [{ title: 'two\nlines' }, 'preview_invalid', 'preview.title'],
      [{ description: 'bell\u0007' }, 'preview_invalid', 'preview.description'],
      [{ image: 'http://10.0.0.1/card.png' }, 'url_private_address_not_allowed', 'preview.image'],
      [{ image: 'javascript:alert(1)' }, 'url_scheme_not_allowed', 'preview.image'],
      [{}, 'preview_invalid', 'preview'],
    ];
    for (const [preview, code, field] of cases) {
      const answer = await postLink(t.app, user.token, { url: 'https://shop.example/bad', preview });
      assert.equal(answer.statusCode, 400, JSON.stringify(preview));
      assert.equal(answer.json().code, code, JSON.stringify(preview));
      assert.equal(answer.json().field, field, JSON.stringify(preview));
    }
    assert.deepEqual(await allLinkRows(t.deps), before);
    const link = await createLink(t.app, user.token, { url: 'https://shop.example/bad-edit', preview: { title: 'Kept' } });
    const refused = await patch(user.token, link.id, { preview: { image: 'http://localhost/a.png' } });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().field, 'preview.image');
    assert.deepEqual((await linkRow(t.deps, link.id)).options, JSON.stringify({ preview: { title: 'Kept' } }));
  });

  test('PATCH sets, replaces and with null removes the preview, keeping other options; the next visit follows', async () => {
    const user = await registerUser(t.app);
    const link = await createLink(t.app, user.token, { url: 'https://shop.example/edit' });
    assert.equal((await fetchAs(link.shortCode, AGENTS.x)).statusCode, 301, 'cached as a plain link first');
    const set = await patch(user.token, link.id, { preview: { title: 'New card' } });
    assert.deepEqual(set.json().preview, { title: 'New card' });
    assert.equal((await fetchAs(link.shortCode, AGENTS.x)).statusCode, 200);
    await t.deps.database.db.updateTable('links').set({ options: JSON.stringify({ fallbackUrl: 'https://shop.example/other', preview: { title: 'New card' } }) })
      .where('id', '=', link.id).execute();
    const removed = await patch(user.token, link.id, { preview: null });
    assert.equal(removed.json().preview, null);
    assert.equal((await linkRow(t.deps, link.id)).options, JSON.stringify({ fallbackUrl: 'https://shop.example/other' }), 'another option stays');
    assert.equal((await fetchAs(link.shortCode, AGENTS.x)).statusCode, 302, 'a link with options redirects temporarily');
  });

  test('the workspace API v1 takes and answers preview', async () => {
    const user = await registerUser(t.app);
    const teamId = await createWorkspace(t.app, user.token);
    const created = await t.app.inject({
      method: 'POST', url: `/api/v1/workspaces/${teamId}/links`, headers: bearer(user.token),
      payload: { original_url: 'https://shop.example/v1', preview: { title: 'V1 card', image: 'https://cdn.example/v1.png' } },
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual(created.json().preview, { title: 'V1 card', image: 'https://cdn.example/v1.png' });
    const url = `/api/v1/workspaces/${teamId}/links/${created.json().short_code}`;
    const cleared = await t.app.inject({ method: 'PATCH', url, headers: bearer(user.token), payload: { preview: null } });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal(cleared.json().preview, null);
  });
});
