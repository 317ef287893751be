import type { Kysely, Selectable } from 'kysely';
import type { LinkShare, LinkShareStore, NewLinkShare } from '../core/link-share-ports.js';
import type { Database, LinkShareRow } from './schema.js';
import { guarded } from './store-errors.js';

const linkShareRowToLinkShare = (row: Selectable<LinkShareRow>): LinkShare => ({
  id: Number(row.id), linkId: Number(row.link_id), createdBy: row.created_by === null ? null : Number(row.created_by), createdAt: Number(row.created_at),
});

/** Share addresses of links' stats (migration 018), both databases. */
export class KyselyLinkShareStore implements LinkShareStore {
  constructor(private readonly db: Kysely<Database>) {}

  replaceShare(share: NewLinkShare): Promise<LinkShare> {
    return guarded(() => this.db.transaction().execute(async (trx) => {
      await trx.updateTable('link_shares').set({ revoked_at: share.now })
        .where('link_id', '=', share.linkId).where('revoked_at', 'is', null).execute();
      const row = await trx.insertInto('link_shares')
        .values({ link_id: share.linkId, token_hash: share.tokenHash, created_by: share.createdBy, created_at: share.now })
        .returningAll().executeTakeFirstOrThrow();
      return linkShareRowToLinkShare(row);
    }));
  }

  findActiveShare(linkId: number): Promise<LinkShare | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('link_shares').selectAll()
        .where('link_id', '=', linkId).where('revoked_at', 'is', null).executeTakeFirst();
      return row && linkShareRowToLinkShare(row);
    });
  }

  revokeShare(linkId: number, now: number): Promise<boolean> {
    return guarded(async () => {
      const result = await this.db.updateTable('link_shares').set({ revoked_at: now })
        .where('link_id', '=', linkId).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  findSharedLinkId(tokenHash: string): Promise<number | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('link_shares').select('link_id')
        .where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
      return row && Number(row.link_id);
    });
  }
}
