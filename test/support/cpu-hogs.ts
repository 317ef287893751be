import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { onTeardown, type TeardownScope } from './teardown.js';

/** Whether a process with this id still runs, as `ps` sees it. */
export function processRuns(pid: number): boolean {
  try {
    return execFileSync('ps', ['-o', 'pid=', '-p', String(pid)], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false; // ps exits 1 when no process matched
  }
}

async function stopByPid(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  process.kill(child.pid!, 'SIGKILL');
  await exited;
}

export interface CpuHogs {
  readonly pids: readonly number[];
  /** Kills each hog by its PID and checks with `ps` that none is left; the scope calls it too. */
  stop(): Promise<void>;
}

/**
 * `count` processes at normal priority that spin for at most `maxMs` (a bound if the teardown
 * never runs): other work on the host that takes the CPU first, as on a machine at load average 5.
 */
export function startCpuHogs(scope: TeardownScope, count: number, maxMs: number): CpuHogs {
  const children = Array.from({ length: count }, () => spawn(process.execPath, ['-e', `const end = Date.now() + ${maxMs}; for (;;) { if (Date.now() > end) break; }`], { stdio: 'ignore' }));
  const pids = children.map((child) => child.pid!);
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= (async () => {
    await Promise.all(children.map(stopByPid));
    const left = pids.filter(processRuns);
    if (left.length > 0) throw new Error(`CPU hogs still running after the teardown: ${left.join(', ')}`);
  })());
  onTeardown(scope, stop);
  return { pids, stop };
}
