import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { onTeardown, once, type TeardownScope } from './teardown.js';
import { nodeEntry } from './node-entry.js';

export interface ServerProcess {
  readonly baseUrl: string;
  readonly child: ChildProcess;
  readonly dataDir: string;
  output(): string;
  /** Resolves once the output holds `text` (at once if it already does): the event a test waits for, not a timer. */
  outputIncludes(text: string): Promise<void>;
  /** Sends SIGTERM and resolves with the exit code; the scope it was started in calls it too. */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  /** Told the whole output so far each time the process writes, while it starts and after. */
  readonly onOutput?: (output: string) => void;
  /** A data directory to reuse (a restart on the same files); kept when the server stops. A fresh one by default. */
  readonly dataDir?: string;
}

/** Starts `src/main.ts` as a real process on a free loopback port, as a user would run it, stopped when `scope` ends. */
export async function startServer(scope: TeardownScope, env: Record<string, string> = {}, options: StartOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-e2e-'));
  const child = spawn(process.execPath, nodeEntry('src/main.ts'), {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, BCRYPT_COST: '4', CLEANUP_ENABLED: 'false', HEALTHCHECK_ENABLED: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = once(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const code = await exited;
    if (options.dataDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
    return code;
  });
  onTeardown(scope, stop);
  let output = '';
  const onOutput = (chunk: Buffer) => { output += chunk; options.onOutput?.(output); };
  child.stdout!.on('data', onOutput);
  child.stderr!.on('data', onOutput);
  const outputIncludes = (text: string) => new Promise<void>((resolve) => {
    const check = () => {
      if (!output.includes(text)) return;
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      resolve();
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    check();
  });
  await new Promise<void>((resolve, reject) => {
    // A bound for a start that hangs, not a measure of speed: tsx compiling the server on a busy
    // 2-core machine has taken over 20 s.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', () => {
      if (output.includes('Linkforge is ready')) { clearTimeout(timer); resolve(); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n${output}`)); });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    dataDir,
    output: () => output,
    outputIncludes,
    stop,
  };
}

/** Registers a fresh user on a running server over real HTTP; answers the user's token. */
export async function registerOverHttp(server: ServerProcess): Promise<string> {
  const email = `user-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const response = await fetch(`${server.baseUrl}/api/auth/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse battery' }),
  });
  if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}
