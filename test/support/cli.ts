import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, postgresEnv, type TestApp } from './test-app.js';
import { createTestDatabase, httpSuiteDatabase } from './postgres.js';
import { onTeardown, once, type TeardownScope } from './teardown.js';
import { nodeEntry } from './node-entry.js';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A database of its own for the CLI to work on, on the backend the suite runs on
 * (LINKFORGE_TEST_DATABASE): a fresh SQLite file in a temporary DATA_DIR, or a fresh PostgreSQL
 * database. `env` is what every `linkforge` run (and `app()`) is configured with.
 */
export interface CliBackend {
  readonly name: 'sqlite' | 'postgres';
  readonly dataDir: string;
  readonly env: Record<string, string>;
  /** `linkforge ARGS`, the real command in a child process; `input` is piped to its stdin. */
  run(args: readonly string[], options?: { input?: string; env?: Record<string, string> }): Promise<CliResult>;
  /** The HTTP app over the same database, to check what a user sees; close it before the next run. */
  app(scope: TeardownScope): Promise<TestApp>;
  /** Removes the database; the scope it was made in calls it too. */
  close(): Promise<void>;
}

const CLI_ENTRY = 'src/cli/main.ts';

/** Runs the CLI (compiled, or its source with tsx: test/support/node-entry.ts): what bin/linkforge.mjs runs. */
export function runCli(args: readonly string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const { LINKFORGE_TEST_DATABASE: _ignored, ...inherited } = process.env;
    const child = spawn(process.execPath, [...nodeEntry(CLI_ENTRY), ...args], {
      env: { ...inherited, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** A CLI backend (above), removed when `scope` ends. */
export async function createCliBackend(scope: TeardownScope): Promise<CliBackend> {
  const name = httpSuiteDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-cli-'));
  const postgres = name === 'postgres' ? await createTestDatabase() : undefined;
  const close = once(async () => {
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  onTeardown(scope, close);
  const env: Record<string, string> = {
    DATA_DIR: dataDir, LOG_LEVEL: 'silent', BASE_URL: 'http://sho.rt', BCRYPT_COST: '4',
    CLEANUP_ENABLED: 'false', HEALTHCHECK_ENABLED: 'false',
    // A reaper run keeps its lock this long after it ends (10 min by default): tests run it again sooner.
    CLEANUP_LOCK_AT_LEAST: '0',
    ...(postgres ? postgresEnv(postgres) : {}),
  };
  return {
    name, dataDir, env,
    run: (args, options = {}) => runCli(args, { ...env, ...options.env }, options.input),
    app: (appScope) => createTestApp(appScope, env, { dataDir, database: name }),
    close,
  };
}

/** The one line a failing command writes to stderr. */
export function oneLine(text: string): string {
  const lines = text.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one line on stderr, got:\n${text}`);
  return lines[0]!;
}
