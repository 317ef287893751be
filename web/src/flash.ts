import type { SyncOutcome } from './api.js';

/** What signing in did with the anonymous links, handed from the sign-in page to the dashboard once. */
let pending: SyncOutcome[] | undefined;

export function setSyncOutcomes(outcomes: SyncOutcome[]): void {
  pending = outcomes;
}

export function takeSyncOutcomes(): SyncOutcome[] | undefined {
  const outcomes = pending;
  pending = undefined;
  return outcomes;
}
