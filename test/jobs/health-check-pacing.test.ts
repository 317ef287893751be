import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import type { Link } from '../../src/core/link.js';
import { KyselyAccountStore } from '../../src/storage/account-store.js';
import { createOwner } from '../support/contract-fixtures.js';
import { fakeDns } from '../support/fake-dns.js';
import { checkedState, jobsFor, ranAndChecked, statusServer } from '../support/health-check-runs.js';
import { insertLink } from '../support/links.js';
import { eventually, HOUR } from '../support/cleanup-fixtures.js';
import { startTarget, type TargetServer } from '../support/target-servers.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * How a run shares itself out (docs/adr/0015): one silent destination holds one slot, never the
 * run; each address (not each name) is asked one at a time, with a pause between checks and a
 * budget per run; each workspace has a budget per run. Every server listens on a loopback address
 * of its own (127.0.0.x), since addresses are what is paced.
 */
describe('the health check shares a run between destinations and workspaces', () => {
  let t: TestApp;
  const servers: TargetServer[] = [];
  const serve = async (starting: Promise<TargetServer>) => {
    const server = await starting;
    servers.push(server);
    return server;
  };
  const setUp = async (context: TestContext) => {
    t = await createTestApp(context);
  };
  const tearDown = async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    await t.close();
  };
  const links = async (count: number, url: (i: number) => string, workspaceId: number | null = null): Promise<Link[]> => {
    const made: Link[] = [];
    for (let i = 0; i < count; i++) made.push(await insertLink(t.deps, { originalUrl: url(i), workspaceId }));
    return made;
  };
  const states = (of: Link[]) => Promise.all(of.map((link) => checkedState(t, link.id)));

  test('a host that accepts and never answers, ahead of good links, holds one slot: the good links are asked while it hangs, and it is left after 3 timeouts', async (context) => {
    await setUp(context);
    try {
      const events: string[] = [];
      const tarpit = await serve(startTarget((request) => {
        request.socket.once('close', () => events.push('tarpit socket closed'));
      }, '127.0.0.2'));
      const good = await serve(startTarget((_request, response) => {
        events.push('good asked');
        response.end();
      }, '127.0.0.3'));
      const silent = await links(12, (i) => tarpit.url(`/${i}`));
      const answering = await links(4, (i) => good.url(`/${i}`));
      // Pages of 5, the first two all the tarpit's; at most 4 of its links wait at once, the rest are deferred.
      const run = await jobsFor(t, { batchSize: 5, timeoutMs: 1000, waitingPerAddress: 4 }).checker.run();
      assert.deepEqual(events.slice(0, 4), ['good asked', 'good asked', 'good asked', 'good asked'], events.join(', '));
      assert.equal(tarpit.requests.length, 3);
      assert.deepEqual(await states(answering), answering.map(() => ({ status: 200, at: t.clock.now() })));
      const tarpitStatuses = (await states(silent)).map((state) => state.status);
      assert.deepEqual(tarpitStatuses.filter((status) => status === 0).length, 3, 'the three that timed out');
      assert.deepEqual(tarpitStatuses.filter((status) => status === null).length, 9, 'deferred links keep their last check');
      assert.ok(run.outcome === 'ran' && run.checked === 7 && run.deferred === 9, JSON.stringify(run));
    } finally {
      await tearDown();
    }
  });

  test('links a run deferred stay due: the next run asks them', async (context) => {
    await setUp(context);
    try {
      let answering = false;
      const target = await serve(startTarget((_request, response) => {
        if (answering) response.end();
      }, '127.0.0.2'));
      const deferredLinks = await links(5, (i) => target.url(`/${i}`));
      const jobs = jobsFor(t, { timeoutMs: 300, addressTimeoutLimit: 1 });
      assert.equal(ranAndChecked(await jobs.checker.run()), 1);
      answering = true;
      t.clock.advance(1);
      assert.equal(ranAndChecked(await jobs.checker.run()), 4);
      assert.deepEqual(target.requests.map((request) => request.path), ['/0', '/1', '/2', '/3', '/4']);
      assert.deepEqual((await states(deferredLinks)).slice(1).map((state) => state.status), [200, 200, 200, 200]);
    } finally {
      await tearDown();
    }
  });

  test('links of one address past its share of the lookahead are held back and still asked in the run, up to a bound; past it they are deferred', async (context) => {
    await setUp(context);
    try {
      const target = await serve(statusServer(undefined, '127.0.0.2'));
      const many = await links(6, (i) => target.url(`/${i}`));
      assert.equal(ranAndChecked(await jobsFor(t, { waitingPerAddress: 1, maxHeldBack: 10 }).checker.run()), 6);
      t.clock.advance(HOUR);
      // Which ones are deferred depends on how lookups and checks interleave; how many are asked does not exceed the bound.
      const run = await jobsFor(t, { waitingPerAddress: 1, maxHeldBack: 1 }).checker.run();
      assert.ok(run.outcome === 'ran' && run.checked + run.deferred === 6 && run.deferred >= 2, JSON.stringify(run));
      const checkedNow = (await states(many)).filter((state) => state.at === t.clock.now()).length;
      assert.equal(checkedNow, run.checked);
    } finally {
      await tearDown();
    }
  });

  test('two names on one address share it: one check at a time over both', async (context) => {
    await setUp(context);
    try {
      // Each answer is held until a second request arrives (or 300 ms pass), so two at once would be seen.
      const shared = await serve(statusServer(() => shared.requests.length % 2 === 0, '127.0.0.2'));
      const dns = fakeDns({ 'one.example': ['127.0.0.2'], 'two.example': ['127.0.0.2'] });
      await links(3, (i) => `http://one.example:${shared.port}/${i}`);
      await links(3, (i) => `http://two.example:${shared.port}/${i}`);
      assert.equal(ranAndChecked(await jobsFor(t, { resolve: dns, concurrency: 4 }).checker.run()), 6);
      assert.equal(shared.maxInFlight(), 1);
    } finally {
      await tearDown();
    }
  });

  test('an address is asked again only after its pause, counted from the end of its last check', async (context) => {
    await setUp(context);
    try {
      const PAUSE_MS = 200;
      const asked: number[] = [];
      const answered: number[] = [];
      const target = await serve(startTarget((_request, response) => {
        asked.push(performance.now());
        response.end(() => answered.push(performance.now()));
      }, '127.0.0.2'));
      await links(4, (i) => target.url(`/${i}`));
      assert.equal(ranAndChecked(await jobsFor(t, { addressIntervalMs: PAUSE_MS }).checker.run()), 4);
      // A lower bound only: a slow machine makes the gaps longer, never shorter. The margin covers
      // a timer due time taken from the event loop's cached clock.
      const gaps = asked.slice(1).map((at, i) => Math.round(at - answered[i]!));
      assert.ok(gaps.every((gap) => gap >= PAUSE_MS - 25), `gaps ${gaps.join(', ')} ms`);
    } finally {
      await tearDown();
    }
  });

  test('stopping ends a run that waits out an address\'s pause at once; the link that waited stays unchecked', async (context) => {
    await setUp(context);
    try {
      const target = await serve(statusServer(undefined, '127.0.0.2'));
      const [first, second] = await links(2, (i) => target.url(`/${i}`));
      const jobs = jobsFor(t, { addressIntervalMs: HOUR });
      const running = jobs.checker.run();
      await eventually(async () => (await checkedState(t, first!.id)).status === 200, 5000, 'the first check');
      await jobs.stop();
      assert.deepEqual(await running, { outcome: 'ran', checked: 1, deferred: 0, stoppedEarly: 'shutdown', error: null });
      assert.deepEqual(await checkedState(t, second!.id), { status: null, at: null });
      assert.equal(target.requests.length, 1);
    } finally {
      await tearDown();
    }
  });

  test('an address that used up its time budget is left for the next run', async (context) => {
    await setUp(context);
    try {
      // Each answer takes 30 ms, past a 1 ms budget: the first check spends it all.
      const slow = await serve(startTarget((_request, response) => { setTimeout(() => response.end(), 30); }, '127.0.0.2'));
      const others = [await serve(statusServer(undefined, '127.0.0.3')), await serve(statusServer(undefined, '127.0.0.4'))];
      const slowLinks = await links(3, (i) => slow.url(`/${i}`));
      await links(2, (i) => others[i]!.url('/'));
      const run = await jobsFor(t, { addressBudgetMs: 1 }).checker.run();
      assert.ok(run.outcome === 'ran' && run.checked === 3 && run.deferred === 2, JSON.stringify(run));
      assert.equal(slow.requests.length, 1);
      assert.deepEqual((await states(slowLinks)).map((state) => state.status), [200, null, null]);
    } finally {
      await tearDown();
    }
  });

  test('a workspace that used up its budget of checks is left for the next run; anonymous links share one budget', async (context) => {
    await setUp(context);
    try {
      const owner = await createOwner(new KyselyAccountStore(t.deps.database.db), t.clock.now());
      const targets = [await serve(statusServer(undefined, '127.0.0.2')), await serve(statusServer(undefined, '127.0.0.3'))];
      const owned = await links(4, (i) => targets[i % 2]!.url(`/owned/${i}`), owner.workspaceId);
      const anonymous = await links(3, (i) => targets[i % 2]!.url(`/anonymous/${i}`));
      const run = await jobsFor(t, { workspaceBudget: 2, concurrency: 1 }).checker.run();
      assert.ok(run.outcome === 'ran' && run.checked === 4 && run.deferred === 3, JSON.stringify(run));
      assert.deepEqual((await states(owned)).map((state) => state.status), [200, 200, null, null]);
      assert.deepEqual((await states(anonymous)).map((state) => state.status), [200, 200, null]);
    } finally {
      await tearDown();
    }
  });
});
