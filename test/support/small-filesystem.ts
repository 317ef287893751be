import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTeardown, type TeardownScope } from './teardown.js';

export interface SmallFilesystem {
  readonly dir: string;
  /** Writes a file until the filesystem is full (ENOSPC); returns its path, to delete for space. */
  fill(): string;
  /** Unmounts and deletes it; the scope it was mounted in calls it too. */
  unmount(): void;
}

/**
 * A tmpfs of `size` (`1m`, `3m`) for real "disk full" faults. Mounting needs root, which this
 * machine and CI have: if the mount fails, the test fails with it; it never skips. Unmounted when
 * `scope` ends.
 */
export function mountSmallFilesystem(scope: TeardownScope, size: string, label: string): SmallFilesystem {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `linkforge-${label}-`));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  let mounted = true;
  const unmount = () => {
    if (!mounted) return;
    mounted = false;
    execFileSync('umount', [dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  onTeardown(scope, unmount);
  return {
    dir,
    fill() {
      const filler = path.join(dir, 'filler');
      const fd = fs.openSync(filler, 'w');
      const block = Buffer.alloc(4096, 1);
      try {
        for (;;) fs.writeSync(fd, block);
      } catch (error) {
        assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
      } finally {
        fs.closeSync(fd);
      }
      return filler;
    },
    unmount,
  };
}
