import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogging } from '../../src/logging/logger.js';
import { LogDestination } from '../../src/logging/log-destination.js';
import { PrettyLogDestination, prettyLine, stdoutDestination } from '../../src/logging/pretty-lines.js';

describe('log lines on a terminal', () => {
  test('stdout gets readable lines when it is a terminal, JSON lines otherwise', () => {
    assert.ok(stdoutDestination(true) instanceof PrettyLogDestination);
    const plain = stdoutDestination(false);
    assert.ok(plain instanceof LogDestination && !(plain instanceof PrettyLogDestination));
  });

  test('a line shows time, level, message and the other fields; an error its stack; a non-JSON line is kept', () => {
    const time = Date.parse('2026-01-02T03:04:05.678Z');
    assert.equal(prettyLine(JSON.stringify({ level: 30, time, pid: 1, hostname: 'h', msg: 'Linkforge is ready', redis: 'off', port: 80 })),
      '03:04:05.678 INFO  Linkforge is ready  redis=off port=80\n');
    const withError = prettyLine(JSON.stringify({ level: 50, time, msg: 'lookup failed', err: { message: 'boom', stack: 'Error: boom\n    at x' } }));
    assert.equal(withError, '03:04:05.678 ERROR lookup failed\n    Error: boom\n        at x\n');
    assert.equal(prettyLine('not json\n'), 'not json\n');
  });

  test('the real logger writes readable lines through the pretty destination', (context) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-pretty-'));
    const fd = fs.openSync(path.join(dir, 'out.log'), 'w');
    context.after(() => { fs.closeSync(fd); fs.rmSync(dir, { recursive: true, force: true }); });
    const { logger } = createLogging('info', new PrettyLogDestination(fd));
    logger.warn({ name: 'REDIS_URI' }, 'not ours');
    assert.match(fs.readFileSync(path.join(dir, 'out.log'), 'utf8'), /^\d\d:\d\d:\d\d\.\d{3} WARN  not ours {2}name=REDIS_URI\n$/);
  });
});
