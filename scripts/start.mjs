// `npm start`: compile the server and build the web UI if either is missing or older than its sources, then serve in a
// child process started with the runtime settings of scripts/runtime-settings.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ensureUiBuilt } from './build-ui.mjs';
import { serverRuntime } from './runtime-settings.mjs';

function newestMtime(dir) {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    return Math.max(newest, mtime);
  }, 0);
}

const entry = 'dist/src/main.js';
if (!existsSync(entry) || statSync(entry).mtimeMs < newestMtime('src')) {
  console.log('Building Linkforge…');
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await ensureUiBuilt();

const { env, execArgv } = serverRuntime();
const server = spawn(process.execPath, [...execArgv, path.resolve(entry)], { env, stdio: 'inherit' });
// The server shuts down gracefully on SIGTERM/SIGINT; this process only passes them on and waits.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
