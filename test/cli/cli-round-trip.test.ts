import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createCliBackend, type CliBackend } from '../support/cli.js';
import { suiteScope, type TeardownScope } from '../support/teardown.js';
import { DEFAULT_PASSWORD } from '../support/users.js';

const HUMAN_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PREVIEW_UA = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

/** A database with every kind of link: expiring, deleted, visited by each class, imported with counts. */
async function populate(scope: TeardownScope, cli: CliBackend): Promise<void> {
  assert.equal((await cli.run(['user', 'create', 'source@example.com'], { input: DEFAULT_PASSWORD })).code, 0);
  for (const args of [
    ['https://example.com/visited', '--code', 'visited', '--tag', 'Launch', '--tag', 'Ünïcode tag'],
    ['https://example.com/expiring', '--code', 'expiring', '--expires', '2099-06-30T12:34:56.789Z', '--redirect-status', '308', '--max-clicks', '7', '--fallback-url', 'https://example.com/after'],
    ['https://example.com/gone', '--code', 'gone'],
    ['https://example.com/untouched?b=2&a=1#/route'],
  ]) {
    const result = await cli.run(['link', 'create', ...args]);
    assert.equal(result.code, 0, result.stderr);
  }
  assert.equal((await cli.run(['import', 'test/fixtures/imports/shlink.csv'])).code, 3);
  assert.equal((await cli.run(['tag', 'colour', 'launch', 'teal'])).code, 0);
  const t = await cli.app(scope);
  for (const [agent, n] of [[HUMAN_UA, 3], [BOT_UA, 2], [PREVIEW_UA, 1]] as const) {
    for (let i = 0; i < n; i++) {
      const response = await t.app.inject({ url: '/visited', headers: { 'user-agent': agent, referer: 'https://news.example/item' } });
      assert.equal(response.statusCode, 301);
      t.clock.advance(61_000);
    }
  }
  await t.deps.analytics!.flusher.flushNow();
  const gone = await t.deps.store.findLinkByCode(t.deps.redirects.domain, 'gone');
  assert.ok(await t.deps.store.markLinkDeleted(gone!.id, t.clock.now()));
  await t.close();
}

describe('export → import into an empty database → export gives the same file', () => {
  const suite = suiteScope();
  const fresh = () => createCliBackend(suite);
  let source: CliBackend;
  before(async () => {
    source = await fresh();
    await populate(suite, source);
  });

  for (const format of ['csv', 'json'] as const) {
    for (const withVisits of [true, false]) {
      test(`${format}${withVisits ? ' with visits' : ''}: codes, destinations, expiry, status, counts and latency survive`, async () => {
        const flags = ['--format', format, ...(withVisits ? ['--with-visits'] : [])];
        const first = path.join(source.dataDir, `first.${format}`);
        const exported = await source.run(['export', ...flags, '--output', first]);
        assert.equal(exported.code, 0, exported.stderr);
        const text = fs.readFileSync(first, 'utf8');
        assert.equal((await source.run(['export', ...flags])).stdout, text, '--output and stdout write the same');
        for (const expected of ['visited', 'expiring', 'gone', 'abc123', '2099-06-30T12:34:56.789Z', 'DELETED', 'https://example.com/after']) assert.ok(text.includes(expected), expected);
        for (const expected of ['Launch', 'teal', 'Ünïcode tag', 'docs', 'shlink']) assert.ok(text.includes(expected), `the tag ${expected} is in the file`);
        if (withVisits) assert.ok(text.includes('news.example') && text.includes('preview'), 'the visits are in the file');

        const target = await fresh();
        assert.equal((await target.run(['user', 'create', 'target@example.com'], { input: DEFAULT_PASSWORD })).code, 0);
        const imported = await target.run(['import', first, '--json']);
        assert.equal(imported.code, 0, imported.stdout + imported.stderr);
        assert.equal(JSON.parse(imported.stdout).created, 6);
        const again = await target.run(['export', ...flags]);
        assert.equal(again.code, 0, again.stderr);
        assert.equal(again.stdout, text);
        assert.equal((await target.run(['tag', 'list'])).stdout, 'docs\tgray\t1 link\nLaunch\tteal\t1 link\nshlink\tgray\t1 link\nÜnïcode tag\tgray\t1 link\n');
      });
    }
  }

  test('the imported visits show in the link\'s statistics, and its counters carry over', async (context) => {
    const file = path.join(source.dataDir, 'stats.json');
    assert.equal((await source.run(['export', '--format', 'json', '--with-visits', '--output', file])).code, 0);
    const target = await fresh();
    assert.equal((await target.run(['user', 'create', 'stats@example.com'], { input: DEFAULT_PASSWORD })).code, 0);
    assert.equal((await target.run(['import', file])).code, 0);
    const t = await target.app(context);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'stats@example.com', password: DEFAULT_PASSWORD } });
    const token = login.json().token as string;
    const link = (await t.deps.store.findLinkByCode(t.deps.redirects.domain, 'visited'))!;
    assert.deepEqual([link.redirectCount, link.humanCount], [6, 3]);
    const stats = await t.app.inject({ url: `/api/urls/${link.id}/stats?from=2025-12-31T00:00:00Z&to=2026-01-02T00:00:00Z`, headers: { authorization: `Bearer ${token}` } });
    assert.equal(stats.statusCode, 200, stats.body);
    const totals = stats.json().series.reduce((sum: number, bucket: { clicks: { total: number } }) => sum + bucket.clicks.total, 0);
    assert.equal(totals, 6);
  });
});
