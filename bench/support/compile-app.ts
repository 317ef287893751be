import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, track } from './children.js';

/**
 * The app as `npm start` runs it: src/ compiled by tsc into `dir` (never into the repo). Returns
 * the folder holding app.js, config.js and deps.js, for bench/support/app-server.mjs. `repo` is
 * another checkout to compile instead of this one (with this one's node_modules), for A/B benches.
 */
export async function compileApp(dir: string, repo = REPO): Promise<string> {
  const outDir = path.join(dir, 'dist');
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  const tsc = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
  const child = track(spawn(process.execPath, [tsc, '-p', path.join(repo, 'tsconfig.build.json'), '--outDir', outDir, '--sourceMap', 'false'],
    { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] }));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const srcDir = path.join(outDir, 'src');
  if (!fs.existsSync(path.join(srcDir, 'app.js'))) throw new Error(`tsc emitted no build (exit ${code}):\n${output}`);
  if (code !== 0) {
    const errors = output.split('\n').filter((line) => line.includes('error TS'));
    console.error(`  warning: tsc reported ${errors.length} type error(s) (work in progress elsewhere?); benchmarking what it emitted:`);
    for (const line of errors.slice(0, 5)) console.error(`    ${line}`);
  }
  return srcDir;
}

/** Starts compiling in the background; an early failure surfaces where the result is awaited. */
export function compileAppInBackground(dir: string): Promise<string> {
  const compiling = compileApp(dir);
  compiling.catch(() => {});
  return compiling;
}
