import assert from 'node:assert/strict';
import type { Resolver } from '../../src/jobs/destination-address.js';
import { createHealthCheckJobs, type HealthCheckJobs, type HealthCheckJobsDeps } from '../../src/jobs/health-check-jobs.js';
import type { HealthCheckRun } from '../../src/jobs/health-checker.js';
import { KyselyHealthCheckStore } from '../../src/storage/health-check-store.js';
import { KyselyJobLockStore } from '../../src/storage/job-lock-store.js';
import { fakeDns } from './fake-dns.js';
import { HOUR } from './cleanup-fixtures.js';
import { startTarget, type TargetServer } from './target-servers.js';
import type { TestApp } from './test-app.js';

export type JobOptions = { allowPrivate?: boolean; resolve?: Resolver } & HealthCheckJobsDeps['overrides'];

/**
 * Every run here talks to servers on loopback addresses only (127.0.0.x: each address is paced on
 * its own); unknown names are never asked of the system DNS. No pause between checks of one
 * address unless a test asks for one.
 */
export function jobsFor(t: TestApp, options: JobOptions = {}): HealthCheckJobs {
  const { allowPrivate, resolve, ...overrides } = options;
  return createHealthCheckJobs({
    settings: { enabled: true, intervalMs: HOUR, addressIntervalMs: 0, addressBudgetMs: HOUR, workspaceBudget: 1000 },
    allowPrivateDestinations: allowPrivate ?? true,
    clock: t.clock,
    lockStore: new KyselyJobLockStore(t.deps.database.db),
    store: new KyselyHealthCheckStore(t.deps.database.db),
    resolve: resolve ?? fakeDns({}),
    overrides: { timeoutMs: 2000, ...overrides },
  });
}

export async function checkedState(t: TestApp, id: number) {
  const link = await t.deps.store.findLinkById(id);
  return { status: link?.destinationStatus, at: link?.lastCheckedAt };
}

export function ranAndChecked(run: HealthCheckRun): number {
  assert.equal(run.outcome, 'ran');
  return run.outcome === 'ran' ? run.checked : -1;
}

/** A server that answers `?status=N` with N, holding each answer until `holdUntil()` is true (or a bound passes). */
export function statusServer(holdUntil: () => boolean = () => true, host?: string): Promise<TargetServer> {
  return startTarget((request, response) => {
    const status = Number(new URL(request.url ?? '/', 'http://target').searchParams.get('status') ?? 200);
    const startedAt = Date.now();
    const answer = () => (holdUntil() || Date.now() - startedAt > 300 ? response.writeHead(status).end() : setTimeout(answer, 5));
    answer();
  }, host);
}
