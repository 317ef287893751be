import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JWT_SECRET_FILE, loadOrCreateJwtSecret } from '../../src/accounts/jwt-secret.js';
import { ConfigError, loadConfig } from '../../src/config.js';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-secret-'));
}

describe('embedded-mode JWT secret', () => {
  test('is created once with mode 0600, 64 random bytes in base64url, and reused afterwards', async () => {
    const dir = tempDir();
    try {
      const first = await loadOrCreateJwtSecret(dir);
      const file = path.join(dir, JWT_SECRET_FILE);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.match(first, /^[A-Za-z0-9_-]{86}$/);
      assert.equal(Buffer.from(first, 'base64url').length, 64);
      assert.equal(await loadOrCreateJwtSecret(dir), first);
      assert.notEqual(await loadOrCreateJwtSecret(tempDir()), first, 'each data directory gets its own');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('processes starting together agree on one secret', async () => {
    const dir = tempDir();
    try {
      const secrets = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateJwtSecret(dir)));
      assert.equal(new Set(secrets).size, 1);
      assert.equal(fs.readFileSync(path.join(dir, JWT_SECRET_FILE), 'utf8'), secrets[0]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('creates a missing data directory', async () => {
    const root = tempDir();
    try {
      assert.ok((await loadOrCreateJwtSecret(path.join(root, 'nested', 'data'))).length >= 32);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('refuses a secret file that is too short, naming the file', async () => {
    const dir = tempDir();
    try {
      fs.writeFileSync(path.join(dir, JWT_SECRET_FILE), 'short');
      await assert.rejects(loadOrCreateJwtSecret(dir), /jwt-secret holds fewer than 32 characters/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('JWT_SECRET in the configuration', () => {
  test('shorter than 32 characters stops start-up with a clear message; 32 is accepted', () => {
    assert.throws(() => loadConfig({ JWT_SECRET: 'x'.repeat(31) }), (error) =>
      error instanceof ConfigError && /JWT_SECRET must be at least 32 characters/.test(error.message));
    assert.equal(loadConfig({ JWT_SECRET: 'x'.repeat(32) }).jwt.secret, 'x'.repeat(32));
  });

  test('is required with PostgreSQL', () => {
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://db.internal/linkforge' }), /JWT_SECRET is required/);
  });
});
