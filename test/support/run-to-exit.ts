import { spawn } from 'node:child_process';
import { nodeEntry } from './node-entry.js';

export interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `src/main.ts` as a real process, as a user would, and waits for it to exit by itself. */
export async function runToExit(env: Record<string, string>, timeoutMs = 20_000): Promise<Exit> {
  const child = spawn(process.execPath, nodeEntry('src/main.ts'), {
    env: { ...process.env, HOST: '127.0.0.1', BCRYPT_COST: '4', CLEANUP_ENABLED: 'false', HEALTHCHECK_ENABLED: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
