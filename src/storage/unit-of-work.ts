import type { Kysely } from 'kysely';
import type { TransactionStores, UnitOfWork } from '../core/ports.js';
import type { Database } from './schema.js';
import { KyselyLinkStore } from './link-store.js';
import { guarded } from './store-errors.js';

/**
 * Kysely's own pattern for transactions that compose: the stores are built on the transaction,
 * so whatever the work does through them commits or rolls back together. On SQLite the whole
 * transaction runs on the writer thread (a savepoint in its group commit).
 */
export class KyselyUnitOfWork implements UnitOfWork {
  constructor(private readonly db: Kysely<Database>) {}

  run<T>(work: (stores: TransactionStores) => Promise<T>): Promise<T> {
    return guarded(() => this.db.transaction().execute((trx) => work({ links: new KyselyLinkStore(trx) })));
  }
}
