/**
 * The bench's child processes and temp dirs: every one is stopped or removed when the bench ends,
 * also on Ctrl-C. Children print to stderr, so that stdout holds only the bench's figures.
 */
import { serverRuntime } from '../../scripts/runtime-settings.mjs';
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SUPPORT = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(SUPPORT, '..', '..');

const children = new Set<ChildProcess>();
const tempDirs: string[] = [];
const cleanUps: (() => Promise<void>)[] = [];
let cleaned = false;

export function makeTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Runs `work` at the end, after every child has stopped (a database to drop, keys to remove). */
export function atCleanUp(work: () => Promise<void>): void {
  cleanUps.push(work);
}

/** Stops `child` with the rest at the end, unless it has exited by then. */
export function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export interface ChildOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly execArgv?: string[];
}

/** Every node child runs with the runtime settings `npm start` gives the server (scripts/runtime-settings.mjs). */
export function spawnChild(script: string, args: string[], options: ChildOptions = {}): ChildProcess {
  const runtime = serverRuntime(options.env ?? baseEnv());
  return track(fork(script, args, {
    cwd: REPO,
    env: runtime.env,
    execArgv: [...runtime.execArgv, ...(options.execArgv ?? [])],
    stdio: ['ignore', 2, 2, 'ipc'],
  }));
}

/** Only what Node and tsx need: nothing from the caller's shell reaches the app's configuration. */
export function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'BENCH_V8_FLAGS', 'BENCH_HEAP_GOVERNOR', 'BENCH_KEEP_TICK_SHAPE']) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/** The next IPC message of `type` from `child`; fails if the child exits first. */
export function nextMessage<T extends { type: string }>(child: ChildProcess, type: T['type'], timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string }) => {
      if (message?.type !== type) return;
      done();
      resolve(message as T);
    };
    const onExit = (code: number | null, signal: string | null) => {
      done();
      reject(new Error(`child ${child.pid} exited (${signal ?? code}) before sending "${type}"`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`child ${child.pid} sent no "${type}" within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Asks a child to stop (IPC `stop`, else SIGTERM); SIGKILL after 3 s. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (signal === 'SIGTERM' && child.connected) child.send({ type: 'stop' });
  else child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}

async function cleanUp(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  await Promise.all([...children].map((child) => stopChild(child)));
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const work of cleanUps) await work().catch((error: unknown) => console.error('clean-up failed:', error));
}

/** Runs a bench's main, then stops its children and removes its temp dirs, also on Ctrl-C. */
export async function runBench(main: () => Promise<void>): Promise<void> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping children and removing ${tempDirs.join(', ') || 'nothing'}`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  try {
    await main();
  } catch (error) {
    if (!cleaned) console.error(error); // after a signal, children exiting early is expected
    process.exitCode = 1;
  } finally {
    await cleanUp();
  }
}
