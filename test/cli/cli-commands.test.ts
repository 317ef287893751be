import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createCliBackend, oneLine, type CliBackend } from '../support/cli.js';
import { DEFAULT_PASSWORD } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';
import { nodeEntry } from '../support/node-entry.js';

describe('linkforge commands, on a database of their own', () => {
  let cli: CliBackend;
  const suite = suiteScope();
  before(async () => { cli = await createCliBackend(suite); });

  const linkCount = async () => JSON.parse((await cli.run(['stats', '--json'])).stdout).totalLinks as number;

  test('migrate brings a new database to the latest schema, and again is harmless', async () => {
    for (let i = 0; i < 2; i++) {
      const result = await cli.run(['migrate']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /is at the latest schema/);
    }
  });

  test('user create reads the password from stdin; that user can sign in with it; --admin gives the admin role', async (context) => {
    const created = await cli.run(['user', 'create', 'Owner@Example.com', '--admin'], { input: `${DEFAULT_PASSWORD}\n` });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^Created admin owner@example\.com \(user \d+\); personal workspace \d+\n$/);
    const plain = await cli.run(['user', 'create', 'plain@example.com'], { input: DEFAULT_PASSWORD });
    assert.match(plain.stdout, /^Created user plain@example\.com/);
    const t = await cli.app(context);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'owner@example.com', password: DEFAULT_PASSWORD } });
    assert.equal(login.statusCode, 200, login.body);
    assert.equal(login.json().user.role, 'admin');
  });

  test('user create refuses a taken email, a short password and an empty stdin with one line each', async () => {
    const taken = await cli.run(['user', 'create', 'owner@example.com'], { input: DEFAULT_PASSWORD });
    assert.equal(taken.code, 1);
    assert.match(oneLine(taken.stderr), /^linkforge: .*\(email_taken\)$/);
    const short = await cli.run(['user', 'create', 'short@example.com'], { input: 'abc\n' });
    assert.equal(short.code, 1);
    assert.match(oneLine(short.stderr), /\(password_too_short\)$/);
    const empty = await cli.run(['user', 'create', 'empty@example.com']);
    assert.equal(empty.code, 2);
    assert.match(oneLine(empty.stderr), /no password on stdin/);
  });

  test('with two workspaces, link create and import need --workspace (exit 2)', async () => {
    for (const args of [['link', 'create', 'https://example.com/a'], ['import', 'test/fixtures/imports/yourls.csv']]) {
      const result = await cli.run(args);
      assert.equal(result.code, 2, result.stderr);
      assert.match(oneLine(result.stderr), /--workspace ID is required/);
    }
  });

  test('link create makes a working link with the given code and expiry, by the API\'s rules', async (context) => {
    const created = await cli.run(['link', 'create', 'https://example.com/launch', '--workspace', '1', '--code', 'launch', '--expires', '2099-01-01T00:00:00Z']);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout, 'http://sho.rt/launch\n');
    const refused = await cli.run(['link', 'create', 'javascript:alert(1)', '--workspace', '1']);
    assert.equal(refused.code, 1);
    assert.match(oneLine(refused.stderr), /\(url_scheme_not_allowed\)$/);
    const taken = await cli.run(['link', 'create', 'https://example.com/other', '--workspace', '1', '--code', 'launch']);
    assert.equal(taken.code, 1);
    assert.match(oneLine(taken.stderr), /\(code_taken\)$/);
    const nowhere = await cli.run(['link', 'create', 'https://example.com/x', '--workspace', '999']);
    assert.equal(nowhere.code, 1);
    assert.match(oneLine(nowhere.stderr), /\(workspace_not_found\)$/);
    const t = await cli.app(context);
    const redirect = await t.app.inject({ url: '/launch' });
    assert.equal(redirect.statusCode, 302, 'an expiring link redirects temporarily');
    assert.equal(redirect.headers.location, 'https://example.com/launch');
    const link = await t.deps.store.findLinkByCode(t.deps.redirects.domain, 'launch');
    assert.equal(link?.expiresAt, Date.parse('2099-01-01T00:00:00Z'));
    assert.equal(link?.workspaceId, 1);
  });

  for (const [fixture, format, created, rejected] of [
    ['bitly-api.csv', 'bitly', ['3xYzAbc', 'docs-start'], 'url_scheme_not_allowed'],
    ['bitly-web.csv', 'bitly', ['3qRsTuv', 'summer-launch'], 'url_scheme_not_allowed'],
    ['shlink.csv', 'shlink', ['abc123', 'xmas-22'], 'url_loop_not_allowed'],
    ['kutt.json', 'kutt-json', ['kutt-one', 'Xy7'], 'url_userinfo_not_allowed'],
    ['kutt.csv', 'kutt-csv', ['kutt-two', 'kutt-three'], undefined],
    ['yourls.csv', 'yourls', ['ab', 'ozh'], 'custom_code_reserved'],
  ] as const) {
    test(`import ${fixture}: a dry run writes nothing, the import keeps each code, a second run creates nothing`, async (context) => {
      const file = `test/fixtures/imports/${fixture}`;
      const before = await linkCount();
      const dry = await cli.run(['import', file, '--workspace', '1', '--dry-run', '--json']);
      assert.equal(JSON.parse(dry.stdout).created, created.length, dry.stdout);
      assert.equal(await linkCount(), before, 'the dry run wrote nothing');

      const first = await cli.run(['import', file, '--workspace', '1', '--json']);
      assert.equal(first.code, rejected ? 3 : 0, first.stderr);
      const report = JSON.parse(first.stdout);
      assert.equal(report.format, format);
      assert.equal(report.created, created.length);
      assert.deepEqual(report.rejections.map((r: { reason: string }) => r.reason), rejected ? [rejected] : []);

      const second = await cli.run(['import', file, '--workspace', '1', '--json']);
      assert.deepEqual(JSON.parse(second.stdout).created, 0);
      assert.deepEqual(JSON.parse(second.stdout).existing, created.length);

      const t = await cli.app(context);
      for (const code of created) {
        const link = await t.deps.store.findLinkByCode(t.deps.redirects.domain, code);
        assert.equal(link?.workspaceId, 1, code);
      }
    });
  }

  test('import prints a human summary with each rejected row and its reason', async () => {
    const result = await cli.run(['import', 'test/fixtures/imports/bitly-api.csv', '--workspace', '1']);
    assert.equal(result.code, 3);
    assert.equal(result.stdout, [
      '3 rows read as bitly',
      '  created:  0',
      '  existing: 2',
      '  rejected: 1',
      '    row 3 (2bAdUrl): url_scheme_not_allowed: Only http and https URLs can be shortened.',
      '',
    ].join('\n'));
    assert.equal(result.stderr, '', 'no progress bar when stderr is not a terminal');
  });

  test('a file of no known format is one line and exit 1, and nothing is imported', async () => {
    const before = await linkCount();
    const result = await cli.run(['import', 'package.json', '--workspace', '1']);
    assert.equal(result.code, 1);
    assert.match(oneLine(result.stderr), /^linkforge: The JSON is neither a list of links nor Kutt's/);
    assert.equal(await linkCount(), before);
  });

  test('cleanup --once runs the reaper once and reports it; stats counts it', async () => {
    const result = await cli.run(['cleanup', '--once']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Cleanup succeeded: \d+ marked expired, \d+ purged/);
    const stats = await cli.run(['stats']);
    assert.equal(stats.code, 0, stats.stderr);
    assert.match(stats.stdout, /Cleanup runs:\s+1 succeeded, 0 failed/);
    assert.match(stats.stdout, /Active links:\s+\d+/);
  });

  test('cleanup without --once runs on the schedule until SIGTERM, then exits 0', { timeout: 90_000 }, async () => {
    const before = JSON.parse((await cli.run(['stats', '--json'])).stdout).cleanup.successfulRuns as number;
    const child = spawn(process.execPath, [...nodeEntry('src/cli/main.ts'), 'cleanup'], {
      env: { ...process.env, ...cli.env, CLEANUP_INITIAL_DELAY: '0', CLEANUP_INTERVAL: '100ms' }, stdio: ['ignore', 'ignore', 'ignore'],
    });
    const exited = once(child, 'exit');
    let ran = false;
    for (const deadline = Date.now() + 60_000; !ran && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      ran = JSON.parse((await cli.run(['stats', '--json'])).stdout).cleanup.successfulRuns > before;
    }
    assert.equal(child.exitCode, null, 'still running on its schedule');
    child.kill('SIGTERM');
    const [code] = await exited;
    assert.ok(ran, 'a scheduled run was recorded');
    assert.equal(code, 0);
  });

  test('export of a workspace that does not exist is one line and exit 1', async () => {
    const result = await cli.run(['export', '--workspace', '999']);
    assert.equal(result.code, 1);
    assert.match(oneLine(result.stderr), /\(workspace_not_found\)$/);
    assert.equal(result.stdout, '');
  });
});
