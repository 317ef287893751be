import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { lazyChildLoggerFactory } from '../../src/logging/request-logger.js';

function logging(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  let children = 0;
  const logger = pino({ level, onChild: () => { children++; }, redact: ['req.headers.authorization'] }, { write: (line: string) => { lines.push(JSON.parse(line)); } });
  return { logger, lines, children: () => children };
}

const withoutTime = ({ time: _time, ...line }: Record<string, unknown>) => line;

describe('lazyChildLoggerFactory', () => {
  test('a request that writes nothing at the level makes no child logger', () => {
    const { logger, lines, children } = logging('warn');
    const log = lazyChildLoggerFactory(logger, { reqId: 'r-1' }, {});
    log.info({ req: { url: '/api/urls' } }, 'incoming request');
    log.debug('detail');
    assert.equal(children(), 0);
    assert.deepEqual(lines, []);
  });

  test('the lines it writes are a real child\'s, made once, redaction included', () => {
    const { logger, lines, children } = logging('info');
    const log = lazyChildLoggerFactory(logger, { reqId: 'r-2' }, {});
    log.info({ req: { headers: { authorization: 'Bearer secret' } } }, 'incoming request');
    log.error(new Error('boom'));
    assert.equal(children(), 1);
    logger.child({ reqId: 'r-2' }).info({ req: { headers: { authorization: 'Bearer secret' } } }, 'incoming request');
    assert.deepEqual(withoutTime(lines[0]!), withoutTime(lines[2]!));
    assert.equal(lines[0]!.reqId, 'r-2');
    assert.deepEqual(lines[0]!.req, { headers: { authorization: '[Redacted]' } });
    assert.equal((lines[1]!.err as { message: string }).message, 'boom');
  });

  test('follows the parent\'s level when it changes, and its own children carry the request id', () => {
    const { logger, lines } = logging('warn');
    const log = lazyChildLoggerFactory(logger, { reqId: 'r-3' }, {});
    logger.level = 'info';
    log.info('now visible');
    log.child({ job: 'reaper' }).info('from a child');
    assert.deepEqual(lines.map((line) => [line.msg, line.reqId]), [['now visible', 'r-3'], ['from a child', 'r-3']]);
    assert.equal(log.level, 'info');
  });

  test('a route with its own level gets a real child at once', () => {
    const { logger, lines, children } = logging('warn');
    const log = lazyChildLoggerFactory(logger, { reqId: 'r-4' }, { level: 'debug' });
    assert.equal(children(), 1);
    log.debug('visible at the route\'s level');
    assert.equal(lines.length, 1);
  });
});
