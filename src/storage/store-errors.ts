import { StoreUnavailableError } from '../core/errors.js';
import type { UniqueConflict } from '../core/ports.js';
import { DATABASE_FILE_GONE } from './sqlite-file-identity.js';

/** The unique index an insert or update broke, read from SQLite's message or PostgreSQL's constraint name. */
export function uniqueConflictOf(error: unknown): UniqueConflict | undefined {
  const err = error as { code?: string; message?: string; constraint?: string };
  if (err.code === '23505') {
    if (err.constraint === 'links_domain_code_key') return 'code';
    if (err.constraint === 'links_workspace_url_key') return 'normalized_url';
  }
  if (err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    if (err.message?.includes('links.domain, links.code')) return 'code';
    if (err.message?.includes('links.workspace_id, links.normalized_url')) return 'normalized_url';
  }
  return undefined;
}

// SQLITE_BUSY_TIMEOUT and SQLITE_WRITER_EXITED are the embedded writer's own (sqlite-writer*.ts).
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY|NOTADB|CORRUPT|WRITER_EXITED)/;
const PG_UNAVAILABLE_CLASSES = ['08', '53', '57']; // connection, resources, operator intervention
// pg's own errors, without a code: a server that went away or stopped answering, a pool with no
// free connection in time, and a connection already broken (a rollback after pg_terminate_backend).
const PG_CONNECTION_LOST = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|has encountered a connection error and is not queryable/i;

/** Whether an error means "the database cannot serve us now" (503) rather than a bug (500). */
export function isUnavailable(error: unknown): boolean {
  const err = error as { code?: string; message?: string };
  if (typeof err?.code === 'string') {
    if (err.code === DATABASE_FILE_GONE) return true;
    if (SQLITE_UNAVAILABLE.test(err.code)) return true;
    if (PG_UNAVAILABLE_CLASSES.includes(err.code.slice(0, 2)) && /^[0-9A-Z]{5}$/.test(err.code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].includes(err.code)) return true;
  }
  const message = err?.message ?? '';
  return PG_CONNECTION_LOST.test(message) || /database connection is not open|driver has already been destroyed/i.test(message);
}

function asStoreError(error: unknown): unknown {
  if (!isUnavailable(error)) return error;
  // Files deleted under the server need an operator, not a retry: say so.
  if ((error as { code?: string }).code === DATABASE_FILE_GONE) return new StoreUnavailableError((error as Error).message);
  return new StoreUnavailableError();
}

/** Runs a store operation, turning "database unreachable" failures into StoreUnavailableError. */
export async function guarded<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw asStoreError(error);
  }
}

/** The same, for an operation that runs synchronously (the embedded redirect lookup). */
export function guardedSync<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    throw asStoreError(error);
  }
}
