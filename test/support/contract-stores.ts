import { before } from 'node:test';
import type { OpenDatabase } from '../../src/storage/database.js';
import { KyselyAccountStore } from '../../src/storage/account-store.js';
import { KyselyCleanupRunStore } from '../../src/storage/cleanup-run-store.js';
import { KyselyJobLockStore } from '../../src/storage/job-lock-store.js';
import { KyselyLinkStore } from '../../src/storage/link-store.js';
import { KyselyCleanupStore } from '../../src/storage/cleanup-store.js';
import { KyselyOperatorStore } from '../../src/storage/operator-store.js';
import { KyselyTagStore } from '../../src/storage/tag-store.js';
import type { StoreBackend } from './store-backends.js';
import { suiteScope } from './teardown.js';

/** Every store, built straight on one backend's database (no app, no deps). */
export interface ContractStores {
  readonly database: OpenDatabase;
  readonly links: KyselyLinkStore;
  readonly accounts: KyselyAccountStore;
  readonly jobLocks: KyselyJobLockStore;
  readonly cleanupRuns: KyselyCleanupRunStore;
  readonly cleanup: KyselyCleanupStore;
  readonly operator: KyselyOperatorStore;
  readonly tags: KyselyTagStore;
}

/**
 * Opens a fresh database of the backend before the suite's tests and removes it after them. The
 * returned object is filled in by then: read its fields inside tests, not at definition time.
 */
export function storesFor(backend: StoreBackend): ContractStores {
  const stores = {} as { -readonly [K in keyof ContractStores]: ContractStores[K] };
  const suite = suiteScope();
  before(async () => {
    const database = await backend.open(suite);
    Object.assign(stores, {
      database,
      links: new KyselyLinkStore(database.db, database.embedded),
      accounts: new KyselyAccountStore(database.db),
      jobLocks: new KyselyJobLockStore(database.db),
      cleanupRuns: new KyselyCleanupRunStore(database.db),
      cleanup: new KyselyCleanupStore(database.db, database.dialect),
      operator: new KyselyOperatorStore(database.db),
      tags: new KyselyTagStore(database.db),
    });
  });
  return stores;
}
