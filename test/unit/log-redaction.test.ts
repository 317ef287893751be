import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LogDestination } from '../../src/logging/log-destination.js';
import { createLogging } from '../../src/logging/logger.js';
import { redactedUrl } from '../../src/logging/redaction.js';

function logged(write: (logger: ReturnType<typeof createLogging>['logger']) => void): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-redact-'));
  const file = path.join(dir, 'log');
  const fd = fs.openSync(file, 'w');
  try {
    write(createLogging('debug', new LogDestination(fd)).logger);
    return fs.readFileSync(file, 'utf8');
  } finally {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('credentials in headers and secrets in bodies are replaced before a line is written', () => {
  const log = logged((logger) => {
    logger.info({ headers: { authorization: 'Bearer header-jwt-1', cookie: 'sid=cookie-2', 'x-api-key': 'lfk_header-key-3', 'x-csrf-token': 'csrf-10', accept: 'text/html' } }, 'headers');
    logger.child({ reqId: 'r1' }).warn({ body: { email: 'a@example.com', password: 'body-password-4', links: [{ shortCode: 'abc', claimToken: 'claim-5' }] } }, 'body');
    logger.error({ password: 'top-password-6', details: { token: 'nested-token-7', apiKey: 'nested-key-8', secret: 'nested-secret-9', csrfToken: 'csrf-11' } }, 'fields');
  });
  for (const secret of ['header-jwt-1', 'cookie-2', 'header-key-3', 'body-password-4', 'claim-5', 'top-password-6', 'nested-token-7', 'nested-key-8', 'nested-secret-9', 'csrf-10', 'csrf-11']) {
    assert.ok(!log.includes(secret), `${secret} was logged:\n${log}`);
  }
  assert.ok(log.includes('text/html') && log.includes('a@example.com') && log.includes('"shortCode":"abc"'), 'other fields stay');
  assert.equal((log.match(/\[Redacted\]/g) ?? []).length, 11);
});

test('a logged URL keeps its path and harmless parameters, not the values of secret-looking ones', () => {
  assert.equal(redactedUrl('/api/urls?page=2&limit=10'), '/api/urls?page=2&limit=10');
  assert.equal(redactedUrl('/api/auth/me?token=eyJ.a.b&page=2'), '/api/auth/me?token=[Redacted]&page=2');
  assert.equal(redactedUrl('/x?access_token=1&API_KEY=2&client_secret=3&password=4&sig=5&flag'), '/x?access_token=[Redacted]&API_KEY=[Redacted]&client_secret=[Redacted]&password=[Redacted]&sig=[Redacted]&flag');
  assert.equal(redactedUrl('/x?%74oken=1'), '/x?%74oken=[Redacted]');
  assert.equal(redactedUrl('/plain/path'), '/plain/path');
});

test('the sign-in provider\'s return keeps no authorization code or state in a logged URL; a short code elsewhere stays', () => {
  assert.equal(redactedUrl('/auth/oidc/callback?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj&iss=https%3A%2F%2Fidp'),
    '/auth/oidc/callback?code=[Redacted]&state=[Redacted]&iss=https%3A%2F%2Fidp');
  assert.equal(redactedUrl('/api/v1/links?code=abc1234'), '/api/v1/links?code=abc1234');
});
