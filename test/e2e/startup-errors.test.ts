import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/free-port.js';
import { runToExit, type Exit } from '../support/run-to-exit.js';

/** The process failed with exactly one line on stderr, and no stack trace. */
function assertOneClearLine(exit: Exit, pattern: RegExp): void {
  assert.notEqual(exit.code, 0, 'exit code');
  const lines = exit.stderr.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, 1, `stderr was:\n${exit.stderr}`);
  assert.doesNotMatch(exit.stderr, /^\s+at /m);
  assert.match(lines[0]!, pattern);
}

describe('start-up mistakes get one clear line, not a stack trace', () => {
  let root: string;
  before(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-startup-')); });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test('a port already in use is named, and nothing is created in the data directory', async () => {
    const port = await freePort();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const dataDir = path.join(root, 'port-in-use');
      const exit = await runToExit({ PORT: String(port), DATA_DIR: dataDir });
      assertOneClearLine(exit, new RegExp(`^Cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use`));
      assert.equal(fs.existsSync(dataDir), false, 'the data directory was created');
    } finally {
      holder.close();
    }
  });

  test('a BLOCKLIST_FILE that does not exist', async () => {
    const dataDir = path.join(root, 'blocklist');
    const exit = await runToExit({ PORT: String(await freePort()), DATA_DIR: dataDir, BLOCKLIST_FILE: path.join(root, 'no-such-blocklist.txt') });
    assertOneClearLine(exit, /^Invalid configuration: BLOCKLIST_FILE must name a readable file/);
    assert.equal(fs.existsSync(dataDir), false);
  });

  test('PASSWORD_LOGIN=false without single sign-on: nobody could sign in, so the server does not start', async () => {
    const dataDir = path.join(root, 'no-sign-in');
    const exit = await runToExit({ PORT: String(await freePort()), DATA_DIR: dataDir, PASSWORD_LOGIN: 'false' });
    assertOneClearLine(exit, /^Invalid configuration: PASSWORD_LOGIN=false needs single sign-on \(OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET\)/);
    assert.equal(fs.existsSync(dataDir), false);
  });

  test('a DATABASE_URL that does not parse', async () => {
    const exit = await runToExit({ PORT: String(await freePort()), DATA_DIR: path.join(root, 'db'), DATABASE_URL: 'postgres://db.local:99999/links', JWT_SECRET: 'x'.repeat(32) });
    assertOneClearLine(exit, /^Invalid configuration: DATABASE_URL is not a valid postgres:\/\/ URL/);
  });

  test('a postgres:// DATABASE_URL naming a database that does not exist', async () => {
    const exit = await runToExit({ PORT: String(await freePort()), DATA_DIR: path.join(root, 'pg'), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/linkforge_no_such_database', JWT_SECRET: 'x'.repeat(32) });
    assertOneClearLine(exit, /^Invalid configuration: DATABASE_URL: PostgreSQL at 127\.0\.0\.1:5432\/linkforge_no_such_database refused the connection: database "linkforge_no_such_database" does not exist/);
  });

  test('a REDIS_URL that does not parse', async () => {
    const exit = await runToExit({ PORT: String(await freePort()), DATA_DIR: path.join(root, 'redis'), REDIS_URL: 'localhost:6379' });
    assertOneClearLine(exit, /^Invalid configuration: REDIS_URL is not a valid redis:\/\/ or rediss:\/\/ URL/);
  });

  // These faults hold as root too (tests run as root here, where chmod stops no write): a regular
  // file standing where a folder should be, and a directory where the database file should be.
  test('a DATA_DIR under a regular file names the file in the way', async () => {
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, '');
    const exit = await runToExit({ PORT: String(await freePort()), DATA_DIR: path.join(file, 'data') });
    assertOneClearLine(exit, new RegExp(`^Cannot use ${file}/data/linkforge\\.db: ${file} is a file, not a directory \\(set by DATA_DIR or DATABASE_URL\\)$`));
    assert.equal(exit.code, 1);
  });

  test('a sqlite: DATABASE_URL naming a directory', async () => {
    const exit = await runToExit({ PORT: String(await freePort()), DATA_DIR: path.join(root, 'dir-db'), DATABASE_URL: `sqlite:${root}` });
    assertOneClearLine(exit, new RegExp(`^Cannot use ${root}: it is a directory, not a database file`));
    assert.equal(exit.code, 1);
  });
});
