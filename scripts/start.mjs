// `npm start`: compile the server and build the web UI if either is missing or older than its sources, then serve in a
// child process started with the runtime settings of scripts/runtime-settings.mjs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';
import { ensureUiBuilt } from './build-ui.mjs';
import { serverRuntime } from './runtime-settings.mjs';

const entry = buildIfStale(process.cwd(), 'dist/src/main.js');
await ensureUiBuilt();

const { env, execArgv } = serverRuntime();
const server = spawn(process.execPath, [...execArgv, path.resolve(entry)], { env, stdio: 'inherit' });
// The server shuts down gracefully on SIGTERM/SIGINT; this process only passes them on and waits.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
