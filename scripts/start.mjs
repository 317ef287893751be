// `npm start`: compile once if the build is missing or older than the sources, then serve.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

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
await import(path.resolve(entry));
