#!/usr/bin/env node
// `npx linkforge …`: npm ci installs no build, so the first run compiles the sources (and any run
// after they changed), then the compiled CLI runs in a child process with the server's runtime
// settings (scripts/runtime-settings.mjs), which `linkforge serve` needs (docs/adr/0019).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { ensureUiBuilt } from '../scripts/build-ui.mjs';
import { serverRuntime } from '../scripts/runtime-settings.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = buildIfStale(root, 'dist/src/cli/main.js');
// `serve` answers the web UI too, so it builds it as `npm start` does; other commands never need it.
if (process.argv[2] === 'serve') await ensureUiBuilt();
const { env, execArgv } = serverRuntime();
const child = spawn(process.execPath, [...execArgv, cli, ...process.argv.slice(2)], { env, stdio: 'inherit' });
// The child handles SIGINT/SIGTERM itself (serve shuts down gracefully); this process passes them on.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
