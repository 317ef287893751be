// Compiles the sources (tsc -p tsconfig.build.json) when `entry` is missing or older than any file
// under src/. Shared by `npm start` (scripts/start.mjs) and the `linkforge` command (bin/linkforge.mjs).
// Progress goes to stderr: the CLI's stdout may be an export being written.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

function newestMtime(dir) {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    return Math.max(newest, mtime);
  }, 0);
}

/** `root` is the project directory; `entry` is relative to it. Exits the process when the build fails. */
export function buildIfStale(root, entry) {
  const target = path.join(root, entry);
  if (existsSync(target) && statSync(target).mtimeMs >= newestMtime(path.join(root, 'src'))) return target;
  process.stderr.write('Building Linkforge…\n');
  const tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  // tsc prints its errors on stdout, which is the protocol channel of `linkforge mcp` (ADR 0033): they go to stderr.
  const build = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: ['ignore', 2, 'inherit'] });
  if (build.status !== 0) {
    process.stderr.write('The build failed; see the errors above.\n');
    process.exit(build.status ?? 1);
  }
  return target;
}
