import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { KyselyHealthCheckStore } from '../../src/storage/health-check-store.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { createOwner, insertedLink, LATE_TIME } from '../support/contract-fixtures.js';

const NOW = LATE_TIME;
const HOUR = 3_600_000;

for (const backend of STORE_BACKENDS) {
  describe(`HealthCheckStore on ${backend.name}`, () => {
    const stores = storesFor(backend);
    const healthChecks = () => new KyselyHealthCheckStore(stores.database.db);
    // The order is over the whole table, so each test starts from an empty one.
    const emptyLinks = () => stores.database.db.deleteFrom('links').execute();
    const idsOf = (links: ReadonlyArray<{ id: number }>) => links.map((link) => link.id);

    test('never-checked links come first (by id), then the oldest check first, at most limit of them', async () => {
      await emptyLinks();
      const [a, b, c, d, e] = await Promise.all(Array.from({ length: 5 }, () => insertedLink(stores.links)))
        .then((links) => links.sort((x, y) => x.id - y.id));
      await healthChecks().recordCheck(a!.id, 200, NOW - HOUR);
      await healthChecks().recordCheck(b!.id, 404, NOW - 3 * HOUR);
      await healthChecks().recordCheck(c!.id, 0, NOW - 2 * HOUR);
      assert.deepEqual(idsOf(await healthChecks().nextLinksToCheck(10, NOW)), [d!.id, e!.id, b!.id, c!.id, a!.id]);
      assert.deepEqual(idsOf(await healthChecks().nextLinksToCheck(3, NOW)), [d!.id, e!.id, b!.id]);
    });

    test('the pick walks the check-order index (migration 007) instead of sorting every active link', async () => {
      // The store's query, as Kysely compiles it, spelled for EXPLAIN on either database.
      const pick = sql`select id, original_url, last_checked_at from links where status = 'ACTIVE'
        and (expires_at is null or expires_at > ${NOW}) order by last_checked_at asc nulls first, id limit 5`;
      const plan = await stores.database.db.transaction().execute(async (trx) => {
        if (backend.name === 'sqlite') return (await sql<{ detail: string }>`explain query plan ${pick}`.execute(trx)).rows.map((r) => r.detail);
        // A handful of rows: without this PostgreSQL rightly prefers a scan, which says nothing about the index.
        await sql`set local enable_seqscan = off`.execute(trx);
        return (await sql<{ 'QUERY PLAN': string }>`explain ${pick}`.execute(trx)).rows.map((r) => r['QUERY PLAN']);
      });
      assert.ok(plan.some((line) => line.includes('links_health_check_idx')), plan.join('\n'));
      assert.ok(!plan.some((line) => /TEMP B-TREE|Sort/i.test(line)), `no sort step: ${plan.join('\n')}`);
    });

    test('a page after a place in the order is a range of the check-order index, not a scan from its start', async () => {
      // The store's own queries, recorded as Kysely compiles them, explained on this database.
      const queries: RootOperationNode[] = [];
      const recorder: KyselyPlugin = {
        transformQuery: ({ node }) => { queries.push(node); return node; },
        transformResult: async ({ result }) => result,
      };
      const recorded = new KyselyHealthCheckStore(stores.database.db.withPlugin(recorder));
      await recorded.nextLinksToCheck(5, NOW, { lastCheckedAt: null, id: 1 });
      await recorded.nextLinksToCheck(5, NOW, { lastCheckedAt: NOW - HOUR, id: 1 });
      const db = stores.database.db;
      const plans = await Promise.all(queries.map((node) => db.transaction().execute(async (trx) => {
        const compiled = db.getExecutor().compileQuery(node, { queryId: 'explain' } as never);
        if (backend.name === 'sqlite') {
          const rows = (await trx.executeQuery(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]))).rows as Array<{ detail: string }>;
          return rows.map((row) => row.detail).join('\n');
        }
        await sql`set local enable_seqscan = off`.execute(trx);
        const rows = (await trx.executeQuery(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]))).rows as Array<{ 'QUERY PLAN': string }>;
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      })));
      assert.ok(plans.length >= 2, `${plans.length} queries`);
      const rangeOfIndex = backend.name === 'sqlite'
        ? /links_health_check_idx \(status=\? AND last_checked_at/
        : /Index Cond: .*status.*last_checked_at/;
      for (const plan of plans) assert.match(plan, rangeOfIndex);
    });

    test('links checked at the same time are taken by id', async () => {
      await emptyLinks();
      const [first, second] = [await insertedLink(stores.links), await insertedLink(stores.links)];
      await healthChecks().recordCheck(second.id, 200, NOW);
      await healthChecks().recordCheck(first.id, 200, NOW);
      assert.deepEqual(idsOf(await healthChecks().nextLinksToCheck(10, NOW)), [first.id, second.id]);
    });

    test('only ACTIVE links not past their expiry are offered', async () => {
      await emptyLinks();
      const forever = await insertedLink(stores.links);
      const later = await insertedLink(stores.links, { expiresAt: NOW + 1 });
      const expiringNow = await insertedLink(stores.links, { expiresAt: NOW });
      await insertedLink(stores.links, { expiresAt: NOW - 1 });
      const deleted = await insertedLink(stores.links);
      await stores.links.markLinkDeleted(deleted.id, NOW);
      const marked = await insertedLink(stores.links, { expiresAt: NOW + HOUR });
      await stores.database.db.updateTable('links').set({ status: 'EXPIRED' }).where('id', '=', marked.id).execute();
      assert.deepEqual(idsOf(await healthChecks().nextLinksToCheck(10, NOW)).sort((x, y) => x - y), [forever.id, later.id]);
      assert.equal(expiringNow.expiresAt, NOW, 'a link whose expiry is now is already expired');
    });

    test('offers what the checker needs: the destination, the workspace and the last check time', async () => {
      await emptyLinks();
      const link = await insertedLink(stores.links, { originalUrl: 'https://example.com/a?b=1#c' });
      assert.deepEqual(await healthChecks().nextLinksToCheck(1, NOW), [{ id: link.id, originalUrl: 'https://example.com/a?b=1#c', workspaceId: null, lastCheckedAt: null }]);
      await healthChecks().recordCheck(link.id, 301, NOW + 5);
      assert.deepEqual(await healthChecks().nextLinksToCheck(1, NOW), [{ id: link.id, originalUrl: 'https://example.com/a?b=1#c', workspaceId: null, lastCheckedAt: NOW + 5 }]);
      const owner = await createOwner(stores.accounts);
      await stores.database.db.updateTable('links').set({ workspace_id: owner.workspaceId }).where('id', '=', link.id).execute();
      assert.equal((await healthChecks().nextLinksToCheck(1, NOW))[0]!.workspaceId, owner.workspaceId);
    });

    test('pages on strictly after a place in the order, across never-checked and checked links and ties', async () => {
      await emptyLinks();
      const links = await Promise.all(Array.from({ length: 6 }, () => insertedLink(stores.links)))
        .then((inserted) => inserted.sort((x, y) => x.id - y.id));
      const [a, b, c, d, e, f] = links as [typeof links[0], typeof links[0], typeof links[0], typeof links[0], typeof links[0], typeof links[0]];
      await healthChecks().recordCheck(c.id, 200, NOW - 2 * HOUR);
      await healthChecks().recordCheck(d.id, 200, NOW - HOUR);
      await healthChecks().recordCheck(e.id, 200, NOW - HOUR);
      const all = [a.id, b.id, f.id, c.id, d.id, e.id];
      assert.deepEqual(idsOf(await healthChecks().nextLinksToCheck(10, NOW)), all);
      const pages: number[][] = [];
      let after: { id: number; lastCheckedAt: number | null } | undefined;
      for (let i = 0; i < 4; i++) {
        const page = await healthChecks().nextLinksToCheck(2, NOW, after);
        pages.push(idsOf(page));
        after = page.at(-1);
      }
      assert.deepEqual(pages, [[a.id, b.id], [f.id, c.id], [d.id, e.id], []]);
      assert.deepEqual(idsOf(await healthChecks().nextLinksToCheck(10, NOW, { id: d.id, lastCheckedAt: NOW - HOUR })), [e.id]);
    });

    test('recordCheck stores the status and the time on the link, 0 included, and nothing else', async () => {
      const link = await insertedLink(stores.links);
      await healthChecks().recordCheck(link.id, 503, NOW + 1);
      const checked = await stores.links.findLinkById(link.id);
      assert.deepEqual(checked, { ...link, destinationStatus: 503, lastCheckedAt: NOW + 1 });
      await healthChecks().recordCheck(link.id, 0, NOW + 2);
      assert.deepEqual(await stores.links.findLinkById(link.id), { ...link, destinationStatus: 0, lastCheckedAt: NOW + 2 });
    });

    test('recordCheck of a link that is gone changes nothing and does not throw', async () => {
      await healthChecks().recordCheck(2 ** 31 - 7, 200, NOW);
      assert.equal(await stores.links.findLinkById(2 ** 31 - 7), undefined);
    });
  });
}
