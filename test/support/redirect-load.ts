import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { onTeardown, type TeardownScope } from './teardown.js';

export interface RedirectLoadResult {
  /** Responses by status code. */
  readonly statuses: Record<string, number>;
  /** Requests that got no answer (connection refused or reset, timed out). */
  readonly errors: number;
  /** The longest time between two answers, from the first answer to the stop. */
  readonly longestGapMs: number;
}

export interface RedirectLoad {
  readonly pid: number;
  /** Answers counted so far (read from the child's progress lines). */
  answered(): number;
  /** Stops the requests and answers what they saw. */
  stop(): Promise<RedirectLoadResult>;
}

// A child process of its own, so that its CPU is not the test's: `connections` loops on keep-alive
// connections, each GETting the next code of the list (in the list's order, round and round).
const SCRIPT = `
const http = require('node:http');
const fs = require('node:fs');
const { port, codesFile, connections, maxMs } = JSON.parse(process.argv[1]);
const codes = fs.readFileSync(codesFile, 'utf8').split('\\n').filter(Boolean);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const statuses = {};
let next = 0, errors = 0, answered = 0, last = 0, longestGapMs = 0, stopping = false;
const deadline = Date.now() + maxMs;
const get = (path) => new Promise((resolve) => {
  const req = http.get({ host: '127.0.0.1', port, path, agent, timeout: 10000 }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
  });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', () => resolve(0));
});
async function loop() {
  while (!stopping && Date.now() < deadline) {
    const status = await get('/' + codes[next++ % codes.length]);
    if (status === 0) { errors++; continue; }
    const now = Date.now();
    if (last > 0) longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    answered++;
    statuses[status] = (statuses[status] || 0) + 1;
  }
}
const progress = setInterval(() => process.stdout.write(JSON.stringify({ answered }) + '\\n'), 250);
process.stdin.on('data', () => { stopping = true; });
Promise.all(Array.from({ length: connections }, loop)).then(() => {
  clearInterval(progress);
  process.stdout.write(JSON.stringify({ result: { statuses, errors, longestGapMs } }) + '\\n');
  agent.destroy();
  process.stdin.destroy();
});
`;

/** Redirect requests at full speed from a child process on 127.0.0.1, for at most `maxMs`; stopped with the scope. */
export function startRedirectLoad(scope: TeardownScope, options: { port: number; codesFile: string; connections: number; maxMs: number }): RedirectLoad {
  const child = spawn(process.execPath, ['-e', SCRIPT, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let answered = 0;
  let buffered = '';
  const result = new Promise<RedirectLoadResult>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const message = JSON.parse(line) as { answered?: number; result?: RedirectLoadResult };
        if (message.answered !== undefined) answered = message.answered;
        if (message.result) resolve(message.result);
      }
    });
    child.once('exit', (code) => reject(new Error(`the redirect load exited with ${code} before reporting`)));
  });
  result.catch(() => {});
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.stdin!.write('stop\n');
    const outcome = await result;
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    return outcome;
  };
  onTeardown(scope, async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      process.kill(child.pid!, 'SIGKILL');
      await exited;
    }
  });
  return { pid: child.pid!, answered: () => answered, stop };
}
