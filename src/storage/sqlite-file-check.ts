import fs from 'node:fs';
import path from 'node:path';
import { DataPathError } from '../core/config-error.js';

const REASONS: Record<string, (at: string) => string> = {
  ENOTDIR: (at) => `${fileInPath(at)} is a file, not a directory`,
  EACCES: (at) => `permission denied on ${at}`,
  EPERM: (at) => `permission denied on ${at}`,
  EROFS: (at) => `${at} is on a read-only file system`,
  ENOSPC: (at) => `no space left for ${at}`,
  ENOENT: (at) => `${at} does not exist`,
};

/** The file that stands where a folder of `at` should be. */
function fileInPath(at: string): string {
  let candidate = at;
  while (path.dirname(candidate) !== candidate && !isFile(candidate)) candidate = path.dirname(candidate);
  return candidate;
}

function isFile(at: string): boolean {
  try {
    return fs.statSync(at).isFile();
  } catch {
    return false;
  }
}

function pathError(file: string, error: unknown): DataPathError {
  const { code, path: at } = error as NodeJS.ErrnoException;
  const reason = code ? REASONS[code] : undefined;
  return new DataPathError(file, reason ? reason(at ?? file) : (error as Error).message);
}

/**
 * Makes the database file's folder and checks that it and the file can be written, so that a
 * path the process cannot use is one line naming it rather than SQLite's `SQLITE_CANTOPEN` stack.
 * As root, permission bits pass this check (and SQLite writes anyway); a read-only file system
 * or a file in the path still fails it.
 */
export function ensureSqliteFileUsable(file: string): void {
  const folder = path.dirname(file);
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.accessSync(folder, fs.constants.R_OK | fs.constants.W_OK);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat?.isDirectory()) throw new DataPathError(file, 'it is a directory, not a database file');
    if (stat) fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
  } catch (error) {
    throw error instanceof DataPathError ? error : pathError(file, error);
  }
}

/** SQLite's own refusal to open or read the file, as one line; any other error as it is. */
export function sqliteOpenError(file: string, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_CANTOPEN') return new DataPathError(file, 'SQLite cannot open it');
  if (code === 'SQLITE_NOTADB') return new DataPathError(file, 'it is not a SQLite database');
  return error;
}
