import { CommanderError } from 'commander';
import { ConfigError, DataPathError } from '../config.js';
import { LinkforgeError } from '../core/errors.js';
import { ImportFormatError } from '../portability/import-candidate.js';

/**
 * Exit codes, documented in docs/cli-and-migration.md:
 * 0 done; 1 the command failed (bad input the rules refuse, unreachable database, unreadable
 * file); 2 the command line is wrong (unknown command or option, missing or malformed argument);
 * 3 an import finished but rejected some rows (the report lists them).
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, rowsRejected: 3 } as const;

/** The command line is wrong in a way the parser cannot see (a missing default, say). */
export class UsageError extends Error {}

/** One line for stderr and the exit code, for anything a command throws. */
export function describeFailure(error: unknown): { message: string; exitCode: number } {
  if (error instanceof CommanderError) return { message: '', exitCode: error.exitCode === 0 ? EXIT.ok : EXIT.usage };
  if (error instanceof UsageError) return { message: `linkforge: ${error.message} (see --help)`, exitCode: EXIT.usage };
  if (error instanceof LinkforgeError) return { message: `linkforge: ${error.message} (${error.code})`, exitCode: EXIT.failure };
  if (error instanceof ConfigError || error instanceof ImportFormatError || error instanceof DataPathError) return { message: `linkforge: ${error.message}`, exitCode: EXIT.failure };
  const err = error as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT' || err?.code === 'EACCES' || err?.code === 'EISDIR') {
    return { message: `linkforge: cannot open ${err.path ?? 'the file'}: ${err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a directory' : 'permission denied'}`, exitCode: EXIT.failure };
  }
  return { message: `linkforge: ${err?.message ?? String(error)}`, exitCode: EXIT.failure };
}
