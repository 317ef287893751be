import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createCliBackend, oneLine, type CliBackend } from '../support/cli.js';
import { suiteScope } from '../support/teardown.js';

const COMMANDS = [[], ['serve'], ['migrate'], ['user', 'create'], ['link', 'create'], ['import'], ['export'], ['cleanup'], ['stats'], ['mcp']];

describe('linkforge: help, usage errors and exit codes', () => {
  let cli: CliBackend;
  const suite = suiteScope();
  before(async () => { cli = await createCliBackend(suite); });

  test('every command answers --help on stdout with exit 0', async () => {
    for (const command of COMMANDS) {
      const result = await cli.run([...command, '--help']);
      assert.equal(result.code, 0, `${command.join(' ')}: ${result.stderr}`);
      assert.match(result.stdout, new RegExp(`^Usage: linkforge ${command.join(' ')}`.trimEnd()), command.join(' '));
    }
    assert.match((await cli.run(['--help'])).stdout, /Exit codes: 0 done, 1 failed, 2 wrong usage, 3 import finished with rejected rows/);
  });

  test('wrong usage exits 2 with the problem on stderr and nothing on stdout', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['frobnicate'], /unknown command 'frobnicate'/],
      [['link', 'create'], /missing required argument 'url'/],
      [['import'], /missing required argument 'file'/],
      [['link', 'create', 'https://example.com', '--workspace', 'abc'], /'--workspace <id>' argument 'abc' is invalid/],
      [['link', 'create', 'https://example.com', '--expires', 'someday'], /'--expires <when>' argument 'someday' is invalid/],
      [['export', '--format', 'xml'], /'--format <format>' argument 'xml' is invalid/],
      [['import', 'x.csv', '--format', 'tinyurl'], /argument 'tinyurl' is invalid/],
      [['stats', '--verbose'], /unknown option '--verbose'/],
    ];
    for (const [args, message] of cases) {
      const result = await cli.run(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, message, args.join(' '));
      assert.equal(result.stdout, '', args.join(' '));
    }
  });

  test('no command prints the help on stderr and exits 2', async () => {
    const result = await cli.run([]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Usage: linkforge/);
  });

  test('a configuration error is one line on stderr and exit 1', async () => {
    const result = await cli.run(['migrate'], { env: { PORT: 'eighty' } });
    assert.equal(result.code, 1);
    assert.match(oneLine(result.stderr), /PORT/);
  });

  test('a file that does not exist is one line and exit 1', async () => {
    const result = await cli.run(['import', 'no/such/file.csv']);
    assert.equal(result.code, 1);
    assert.equal(oneLine(result.stderr), 'linkforge: cannot open no/such/file.csv: no such file');
  });

  test('`npx linkforge` works from the package\'s bin launcher, building when the build is missing or stale', () => {
    // The launcher compiles into dist/ (what a clean clone lacks after npm ci), then runs the built CLI.
    const result = spawnSync('npx', ['--no-install', 'linkforge', '--version'], { encoding: 'utf8', env: { ...process.env, ...cli.env } });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), '0.1.0');
  });
});
