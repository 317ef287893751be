import pg from 'pg';
import type { Logger } from 'pino';
import { ConfigError } from '../core/config-error.js';
import { StoreUnavailableError } from '../core/errors.js';
import type { OpenDatabase } from './database.js';
import { migrateToLatest } from './migrations/index.js';
import { describePostgresUrl } from './postgres-database.js';
import { isUnavailable } from './store-errors.js';

const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 5_000;

/**
 * Applies the migrations, waiting for a PostgreSQL server that is not reachable yet (it may be
 * starting beside us): one log line per attempt, not a stack trace, and no limit, as a process
 * supervisor would otherwise restart us in a loop. Any other failure stops start-up at once.
 * `url` is DATABASE_URL, named (without its password) in the log and in a refusal. With
 * `giveUpAfterMs` (the CLI, where a person waits) the attempts are silent and the last one's
 * reason is one StoreUnavailableError once that time has passed.
 */
export async function migrateWhenReachable(database: OpenDatabase, url: string, logger?: Pick<Logger, 'info' | 'warn'>, giveUpAfterMs?: number): Promise<void> {
  let delay = FIRST_RETRY_MS;
  const deadline = giveUpAfterMs === undefined ? Infinity : Date.now() + giveUpAfterMs;
  for (;;) {
    try {
      await migrateToLatest(database.db, database.dialect);
      return;
    } catch (error) {
      if (!isUnavailable(error)) throw refusal(error, url);
      // A socket's code (ECONNREFUSED) says why; PostgreSQL's SQLSTATE (53300) does not, its message does.
      const reason = error instanceof pg.DatabaseError ? error.message : (error as { code?: string }).code ?? (error as Error).message;
      const unreachable = `PostgreSQL at ${describePostgresUrl(url)} is not reachable (${reason})`;
      if (Date.now() + delay > deadline) throw new StoreUnavailableError(`${unreachable}; gave up after ${Math.round(giveUpAfterMs! / 1000)} s`);
      if (giveUpAfterMs === undefined) logger?.warn(`${unreachable}; retrying in ${delay / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, LONGEST_RETRY_MS);
    }
  }
}

/** PostgreSQL answered but refused us: a wrong user, password or database name is the operator's to fix. */
function refusal(error: unknown, url: string): unknown {
  const code = (error as { code?: string }).code ?? '';
  if (!/^(28|3D)/.test(code)) return error;
  return new ConfigError([`DATABASE_URL: PostgreSQL at ${describePostgresUrl(url)} refused the connection: ${(error as Error).message}`]);
}
