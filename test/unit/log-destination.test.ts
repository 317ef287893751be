import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { LogDestination } from '../../src/logging/log-destination.js';

describe('the log destination', () => {
  test('writes every line to its file descriptor', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-log-'));
    const file = path.join(dir, 'out.log');
    const fd = fs.openSync(file, 'w');
    try {
      const destination = new LogDestination(fd);
      const logger = pino({ level: 'info' }, destination);
      logger.info({ n: 1 }, 'first');
      logger.info({ n: 2 }, 'second');
      const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { msg: string });
      assert.deepEqual(lines.map((line) => line.msg), ['first', 'second']);
      assert.equal(destination.droppedLines, 0);
    } finally {
      fs.closeSync(fd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('on a device that is always full (ENOSPC), drops and counts every line without throwing', () => {
    const fd = fs.openSync('/dev/full', 'w');
    try {
      const destination = new LogDestination(fd);
      const logger = pino({ level: 'info' }, destination);
      for (let i = 0; i < 100; i++) logger.info({ i }, 'cannot be written');
      logger.flush();
      assert.equal(destination.droppedLines, 100);
    } finally {
      fs.closeSync(fd);
    }
  });
});
