import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LogDestination } from '../../src/logging/log-destination.js';
import { createLogging } from '../../src/logging/logger.js';
import { createTestApp } from '../support/test-app.js';
import { listenLocally } from '../support/scrape.js';
import { uniqueEmail } from '../support/users.js';
import { onTeardown, once } from '../support/teardown.js';

interface LogLine { level: number; msg: string; reqId?: string; status?: number; code?: string; req?: { url?: string } }

/** A JSON call on the real server: its status, headers and body. */
async function call(base: string, method: string, url: string, body?: unknown, token?: string, rawBody?: string) {
  const response = await fetch(`${base}${url}`, {
    method,
    redirect: 'manual',
    headers: { ...(body !== undefined || rawBody !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

// ADR 0018: no plaintext claim token, secret or token reaches the log.
test('a full journey at debug level, logged to a file: no password, JWT, claim token or API key appears anywhere in the log', async (context) => {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-log-secrets-'));
  const logFile = path.join(logDir, 'app.log');
  const fd = fs.openSync(logFile, 'w');
  const closeLog = once(async () => fs.closeSync(fd));
  onTeardown(context, closeLog);
  const { logger } = createLogging('debug', new LogDestination(fd));
  const t = await createTestApp(context, { LOG_LEVEL: 'debug' }, { logger });
  const secrets: Record<string, string> = {};
  const base = await listenLocally(t.app);
  const email = uniqueEmail('journey');
  secrets.password = `pass-${crypto.randomBytes(9).toString('hex')}`;
  secrets.wrongPassword = `wrong-${crypto.randomBytes(9).toString('hex')}`;

  const registered = await call(base, 'POST', '/api/auth/register', { email, password: secrets.password });
  assert.equal(registered.status, 201);
  secrets.registerJwt = registered.json.token;
  const login = await call(base, 'POST', '/api/auth/login', { email, password: secrets.password });
  assert.equal(login.status, 200);
  secrets.loginJwt = login.json.token;
  const jwt = secrets.loginJwt!;

  const anonymous = await call(base, 'POST', '/api/urls/public', { url: 'https://example.com/journey' });
  assert.equal(anonymous.status, 201);
  secrets.claimToken = anonymous.json.claimToken;
  assert.equal((await call(base, 'GET', `/${anonymous.json.shortCode}`)).status, 302);
  const synced = await call(base, 'POST', '/api/urls/sync', {
    links: [{ shortCode: anonymous.json.shortCode, claimToken: secrets.claimToken, url: 'https://example.com/journey' }],
  }, jwt);
  assert.equal(synced.status, 200);
  assert.equal(synced.json.results[0].outcome, 'claimed');

  const workspace = await call(base, 'POST', '/api/v1/workspaces', { name: 'journey team' }, jwt);
  assert.equal(workspace.status, 201);
  const key = await call(base, 'POST', `/api/v1/workspaces/${workspace.json.id}/api-keys`, { name: 'journey key' }, jwt);
  assert.equal(key.status, 201);
  secrets.apiKey = key.json.key;
  const made = await call(base, 'POST', `/api/v1/workspaces/${workspace.json.id}/links`, { original_url: 'https://example.com/by-key' }, secrets.apiKey);
  assert.equal(made.status, 201);
  assert.equal((await call(base, 'GET', `/${made.json.short_code}`)).status, 301);

  assert.equal((await call(base, 'POST', '/api/auth/login', { email, password: secrets.wrongPassword })).status, 401);
  // Secrets where they do not belong: a token in the query string (refused, but its URL is logged),
  // a malformed body holding a password (its parse error quotes the body).
  assert.equal((await call(base, 'GET', `/api/auth/me?token=${jwt}&access_token=${secrets.apiKey}`)).status, 401);
  assert.equal((await call(base, 'POST', '/api/auth/login', undefined, undefined, `{"email":"${email}","password":"${secrets.password}"`)).status, 400);
  assert.equal((await call(base, 'GET', '/api/auth/me', undefined, `${jwt}tampered`)).status, 401);
  assert.equal((await call(base, 'GET', '/api/auth/me', undefined, jwt)).status, 200);
  await t.close();
  await closeLog();
  try {
    const log = fs.readFileSync(logFile, 'utf8');
    const lines = log.trim().split('\n').map((line) => JSON.parse(line) as LogLine);
    assert.ok(lines.length >= 20, `only ${lines.length} lines were logged`);
    assert.ok(lines.some((line) => line.msg === 'redirect answered'), 'debug lines were written');
    assert.ok(lines.some((line) => line.req?.url?.startsWith('/api/auth/me?token=')), 'the query-string request was logged');
    assert.equal(Object.keys(secrets).length, 6);
    for (const [name, secret] of Object.entries(secrets)) {
      assert.ok(secret.length >= 20, `${name} is a real secret`);
      assert.ok(!log.includes(secret), `the ${name} appears in the log`);
      // A part of a JWT (its signature) or of a key is as bad as the whole.
      const tail = secret.slice(-16);
      assert.ok(!log.includes(tail), `the end of the ${name} appears in the log`);
    }
  } finally {
    if (process.env.KEEP_LOG) fs.copyFileSync(logFile, process.env.KEEP_LOG);
    fs.rmSync(logDir, { recursive: true, force: true });
  }
});
