import type { Kysely } from 'kysely';
import type { ClickLimitStore } from '../core/click-limit-ports.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';

/**
 * One conditional UPDATE … RETURNING, in SQLite since 3.35 and PostgreSQL: the row lock (PostgreSQL)
 * or the one writer (SQLite, every write on the writer thread, ADR 0010, and the file's write lock
 * between processes) makes the check and the decrement one step, so two visitors can never both
 * take the last click. A read before it would be a race, so there is none.
 */
export class KyselyClickLimitStore implements ClickLimitStore {
  constructor(private readonly db: Kysely<Database>) {}

  consumeClick(linkId: number): Promise<number | undefined> {
    return guarded(async () => {
      const row = await this.db.updateTable('links')
        .set((eb) => ({ clicks_left: eb('clicks_left', '-', 1) }))
        .where('id', '=', linkId)
        .where('clicks_left', '>', 0)
        .returning('clicks_left')
        .executeTakeFirst();
      return row === undefined || row.clicks_left === null ? undefined : Number(row.clicks_left);
    });
  }

  findClicksLeft(linkId: number): Promise<number | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('links').select('clicks_left').where('id', '=', linkId).executeTakeFirst();
      return row === undefined || row.clicks_left === null ? undefined : Number(row.clicks_left);
    });
  }
}
