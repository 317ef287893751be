import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { createDeps } from '../../src/deps.js';
import { MAX_CONCURRENT_HASHES, MAX_QUEUED_HASHES } from '../../src/accounts/password-hasher.js';
import { onTeardown, once, type TeardownScope } from '../support/teardown.js';
import { testConfig } from '../support/test-app.js';

interface LogLine { level: number; msg: string; code?: string }
const WARN = 40;
const ERROR = 50;

/** A real app on a fresh SQLite file whose log lines, at `info` and up, land in `lines`; closed when `scope` ends. */
async function appWithLog(scope: TeardownScope, env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-log-'));
  onTeardown(scope, () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const deps = await createDeps(testConfig(dataDir, { LOG_LEVEL: 'info', ...env }));
  const closeDeps = once(() => deps.close());
  onTeardown(scope, closeDeps);
  const lines: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => { lines.push(JSON.parse(line) as LogLine); } });
  const app = await buildApp(deps, { logger });
  onTeardown(scope, () => app.close());
  await app.ready();
  return { app, lines, closeDatabase: closeDeps };
}

describe('log level of 5xx answers', () => {
  test('a sign-up refused because the bcrypt queue is full (load shedding) logs at warn, never at error', async (context) => {
    // A real bcrypt cost, so that hashes are still running when the later requests arrive.
    const t = await appWithLog(context, { BCRYPT_COST: '10', RATE_LIMIT_AUTH: '0' });
    const flood = MAX_CONCURRENT_HASHES + MAX_QUEUED_HASHES + 6;
    const responses = await Promise.all(Array.from({ length: flood }, (_, i) => t.app.inject({
      method: 'POST', url: '/api/auth/register', payload: { email: `flood${i}@example.com`, password: 'a long passphrase' },
    })));
    const shed = responses.filter((r) => r.statusCode === 503);
    assert.ok(shed.length > 0, `expected some 503s, got ${responses.map((r) => r.statusCode).join(',')}`);
    assert.equal(shed[0]!.json().code, 'server_busy');
    assert.equal(shed[0]!.headers['retry-after'], '5');

    const shedLines = t.lines.filter((line) => line.code === 'server_busy');
    assert.equal(shedLines.length, shed.length, 'one log line per shed request');
    assert.ok(shedLines.every((line) => line.level === WARN), JSON.stringify(shedLines));
    assert.deepEqual(t.lines.filter((line) => line.level >= ERROR), []);
  });

  test('a 503 because the database cannot be reached (a failing dependency) logs at error', async (context) => {
    const t = await appWithLog(context, {});
    await t.closeDatabase();
    const response = await t.app.inject({ url: '/readyz' });
    assert.equal(response.statusCode, 503);
    assert.equal(response.json().code, 'store_unavailable');
    const failures = t.lines.filter((line) => line.msg === 'request failed');
    assert.equal(failures.length, 1);
    assert.equal(failures[0]!.level, ERROR);
  });
});
