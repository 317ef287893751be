import type { AccountServices } from './account-services.js';

/** Sign-out: every session token the user holds, in any browser or script, stops working at once (ADR 0024). API keys are not sessions and keep working. */
export async function endSessions(deps: AccountServices, userId: number): Promise<void> {
  await deps.store.endSessions(userId);
}
