import fs from 'node:fs';
import path from 'node:path';

/**
 * The node arguments that run a source entry such as `src/main.ts`: its compiled twin under the
 * build `npm test` made once for the run (LINKFORGE_TEST_BUILD, scripts/test.mjs), or the source
 * through tsx when there is none (a single file run by hand). The build starts in a third of
 * tsx's time, and the suites start hundreds of processes.
 */
export function nodeEntry(source: string): string[] {
  const build = process.env.LINKFORGE_TEST_BUILD;
  if (build) {
    const compiled = path.join(build, source.replace(/\.ts$/, '.js'));
    if (fs.existsSync(compiled)) return [compiled];
  }
  return ['--import', 'tsx', path.resolve(source)];
}
