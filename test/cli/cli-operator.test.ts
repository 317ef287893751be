import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createCliBackend, oneLine, runCli, type CliBackend } from '../support/cli.js';
import { DEFAULT_PASSWORD } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** What an operator setting up an instance meets first: an empty database, the lists, a database that is not there. */
describe('linkforge for an operator setting up', () => {
  let cli: CliBackend;
  const suite = suiteScope();
  before(async () => { cli = await createCliBackend(suite); });

  test('on an empty database a command that needs a workspace says to create a user first', async () => {
    const result = await cli.run(['link', 'create', 'https://example.com/']);
    assert.equal(result.code, 1);
    assert.match(oneLine(result.stderr), /^linkforge: The database holds no user yet: create one with `linkforge user create EMAIL`/);
  });

  test('user list and workspace list show what user create made', async () => {
    const created = await cli.run(['user', 'create', 'ops@example.com', '--admin'], { input: `${DEFAULT_PASSWORD}\n` });
    assert.equal(created.code, 0, created.stderr);
    const users = await cli.run(['user', 'list']);
    assert.equal(users.code, 0, users.stderr);
    assert.match(users.stdout, /^\d+\tadmin\tops@example\.com\t\d{4}-\d\d-\d\dT[\d:.]+Z\n$/);
    const workspaces = await cli.run(['workspace', 'list', '--json']);
    assert.equal(workspaces.code, 0, workspaces.stderr);
    const [only, ...others] = JSON.parse(workspaces.stdout) as Array<{ isPersonal: boolean; ownerEmails: string[]; memberCount: number }>;
    assert.deepEqual(others, []);
    assert.deepEqual({ isPersonal: only!.isPersonal, ownerEmails: only!.ownerEmails, memberCount: only!.memberCount }, { isPersonal: true, ownerEmails: ['ops@example.com'], memberCount: 1 });
  });

  test('a PostgreSQL that cannot be reached ends the command after a few seconds with one line, exit 1', async () => {
    const started = Date.now();
    // Port 1 on the loopback: nothing listens there, so every attempt is refused at once.
    const result = await runCli(['stats'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/linkforge', JWT_SECRET: 'x'.repeat(32), DATA_DIR: cli.dataDir });
    assert.equal(result.code, 1);
    assert.match(oneLine(result.stderr), /^linkforge: PostgreSQL at 127\.0\.0\.1:1\/linkforge is not reachable \(ECONNREFUSED\); gave up after 5 s \(store_unavailable\)$/);
    assert.ok(Date.now() - started < 30_000, 'bounded, not retried for ever');
  });

  test('a DATA_DIR under a regular file is one line naming the file, exit 1', async () => {
    const file = path.join(cli.dataDir, 'a-file');
    fs.writeFileSync(file, '');
    const result = await runCli(['stats'], { DATA_DIR: path.join(file, 'data') });
    assert.equal(result.code, 1);
    assert.equal(oneLine(result.stderr), `linkforge: Cannot use ${file}/data/linkforge.db: ${file} is a file, not a directory (set by DATA_DIR or DATABASE_URL)`);
  });
});
