import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createCliBackend, oneLine, type CliBackend } from '../support/cli.js';
import { DEFAULT_PASSWORD } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

describe('linkforge import reads within the API\'s limits of fields and row bytes', () => {
  let cli: CliBackend;
  const suite = suiteScope();
  before(async () => {
    cli = await createCliBackend(suite);
    const created = await cli.run(['user', 'create', 'ops@example.com'], { input: `${DEFAULT_PASSWORD}\n` });
    assert.equal(created.code, 0, created.stderr);
  });

  const write = (name: string, content: string | Buffer) => {
    const file = path.join(cli.dataDir, name);
    fs.writeFileSync(file, content);
    return file;
  };

  test('an operator\'s file may hold more rows than IMPORT_MAX_ROWS, which bounds the API\'s imports only', async () => {
    const file = write('rows.csv', 'keyword,url\na,https://example.com/a\nb,https://example.com/b\nc,https://example.com/c\n');
    const result = await cli.run(['import', file, '--json'], { env: { IMPORT_MAX_ROWS: '2' } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).created, 3);
  });

  test('Kutt JSON nested 100,000 levels deep is one line and exit 1, not a crash', async () => {
    const file = write('deep.json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const result = await cli.run(['import', file]);
    assert.equal(result.code, 1, result.stdout);
    assert.match(oneLine(result.stderr), /^linkforge: The JSON is nested deeper than 8 levels\.$/);
  });

  test('a file that is not UTF-8 is one line and exit 1', async () => {
    const file = write('latin1.csv', Buffer.concat([Buffer.from('keyword,url\ncaf'), Buffer.from([0xe9]), Buffer.from(',https://example.com/\n')]));
    const result = await cli.run(['import', file]);
    assert.equal(result.code, 1, result.stdout);
    assert.match(oneLine(result.stderr), /^linkforge: The file is not valid UTF-8/);
  });
});
