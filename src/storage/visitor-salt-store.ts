import { sql, type Kysely } from 'kysely';
import { SALT_HEX_LENGTH, type VisitorSaltStore } from '../core/visitor-ports.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';

/** Visitor ids forgotten per statement: a short write each on SQLite's writer thread. */
const IDS_PER_DELETE = 10_000;

/**
 * The day salts in the shared database (ADR 0028): made by whichever instance asks first (an
 * insert that does nothing on conflict, then a read), so every instance of a deployment hashes a
 * visitor alike. Before a salt row is deleted its text is overwritten with as many zeros (a cell of the same size is
 * rewritten in place), so that the page SQLite writes back no longer holds it.
 */
export class KyselyVisitorSaltStore implements VisitorSaltStore {
  constructor(private readonly db: Kysely<Database>) {}

  saltOfDay(dayStart: number, candidate: string): Promise<string> {
    return guarded(async () => {
      await this.db.insertInto('visitor_salts').values({ day_start: dayStart, salt: candidate })
        .onConflict((oc) => oc.column('day_start').doNothing()).execute();
      const stored = await this.findSalt(dayStart);
      if (stored === undefined) throw new Error('the day salt vanished between its insert and its read');
      return stored;
    });
  }

  findSalt(dayStart: number): Promise<string | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('visitor_salts').select('salt').where('day_start', '=', dayStart).executeTakeFirst();
      return row?.salt;
    });
  }

  forgetBefore(dayStart: number, idsBefore: number): Promise<void> {
    return guarded(async () => {
      await this.db.updateTable('visitor_salts').set({ salt: '0'.repeat(SALT_HEX_LENGTH) }).where('day_start', '<', dayStart).execute();
      await this.db.deleteFrom('visitor_salts').where('day_start', '<', dayStart).execute();
      for (;;) {
        const deleted = await sql`delete from link_visitors where (day_start, link_id, visitor_id) in (
          select day_start, link_id, visitor_id from link_visitors where day_start < ${idsBefore} limit ${IDS_PER_DELETE})`.execute(this.db);
        if (Number(deleted.numAffectedRows ?? 0) < IDS_PER_DELETE) return;
      }
    });
  }
}
