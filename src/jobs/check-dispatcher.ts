import type { LinkToCheck } from '../core/health-check-ports.js';
import type { CheckBudgets } from './check-budgets.js';
import type { ResolvedAddress } from './destination-address.js';
import type { Located, ProbeResult } from './destination-probe.js';

export interface CheckDispatcherDeps {
  /** The next page of due links; an empty list once none are left. */
  readonly nextPage: () => Promise<LinkToCheck[]>;
  readonly locate: (link: LinkToCheck) => Promise<Located>;
  /** Asks the destination at `address` and stores the answer; never throws but for the store. */
  readonly check: (link: LinkToCheck, address: ResolvedAddress) => Promise<ProbeResult>;
  /** Stores the status of a link that cannot be asked (refused, no address, bad URL). */
  readonly recordFailure: (link: LinkToCheck, result: ProbeResult) => Promise<void>;
  readonly budgets: CheckBudgets;
  /** Checks (and lookups) in flight at once. */
  readonly limit: number;
  /** A new page is read while fewer links than this wait, not counting those held back (below). */
  readonly lookahead: number;
  /**
   * Links of one address past this many are held back: they wait without counting against the
   * lookahead, so one address cannot fill it and stop the run from reading on.
   */
  readonly waitingPerAddress: number;
  /** Links held back at most; past it, more of them are deferred to the next run (memory stays bounded). */
  readonly maxHeldBack: number;
  readonly shouldStop: () => boolean;
  /** Aborted at shutdown: wakes a dispatcher waiting out an address's pause. */
  readonly signal: AbortSignal;
  /** Monotonic milliseconds. */
  readonly now: () => number;
}

interface Waiting {
  readonly link: LinkToCheck;
  located?: Located;
}

/**
 * One run's checks: the next links are read and their hosts resolved while checks run, and as soon
 * as a check ends another starts, so one silent destination holds one slot and never the rest. A
 * link starts when its address and workspace admit it (src/jobs/check-budgets.ts); links passed
 * over keep their place. Resolves with the number of links deferred to the next run once nothing
 * runs; after `shouldStop()` or a failure nothing new starts, and a failure rejects.
 */
export function dispatchChecks(deps: CheckDispatcherDeps): Promise<{ deferred: number }> {
  let waiting: Waiting[] = [];
  const waitingByAddress = new Map<string, number>();
  const lookingUp = new Set<Waiting>();
  let reading = false;
  let ended = false;
  let running = 0;
  let deferred = 0;
  let heldBack = 0;
  let failure: { error: unknown } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let settle: (() => void) | undefined;

  const track = (work: Promise<unknown>, onEnd: () => void) => {
    work.catch((error: unknown) => { failure ??= { error }; }).finally(() => {
      onEnd();
      dispatch();
    });
  };
  const addWaiting = (address: string) => {
    const before = waitingByAddress.get(address) ?? 0;
    if (before >= deps.waitingPerAddress) heldBack += 1;
    waitingByAddress.set(address, before + 1);
  };
  const removeWaiting = (address: string) => {
    const before = waitingByAddress.get(address) ?? 0;
    if (before > deps.waitingPerAddress) heldBack -= 1;
    if (before > 1) waitingByAddress.set(address, before - 1);
    else waitingByAddress.delete(address);
  };

  const read = () => {
    reading = true;
    track(deps.nextPage().then((links) => {
      if (links.length === 0) ended = true;
      waiting.push(...links.map((link) => ({ link })));
    }), () => { reading = false; });
  };

  const locate = (item: Waiting) => {
    lookingUp.add(item);
    track(deps.locate(item.link).then((located) => {
      if (!waiting.includes(item)) return;
      const address = 'address' in located ? located.address.address : undefined;
      if (address !== undefined && heldBack >= deps.maxHeldBack && (waitingByAddress.get(address) ?? 0) >= deps.waitingPerAddress) {
        waiting = waiting.filter((other) => other !== item);
        deferred += 1;
        return;
      }
      if (address !== undefined) addWaiting(address);
      item.located = located;
    }), () => { lookingUp.delete(item); });
  };

  const start = (item: Waiting, located: Located) => {
    running += 1;
    if ('failed' in located) return track(deps.recordFailure(item.link, located.failed), () => { running -= 1; });
    const address = located.address.address;
    removeWaiting(address);
    deps.budgets.started(address, item.link.workspaceId);
    const startedAt = deps.now();
    let timedOut = false;
    track(deps.check(item.link, located.address).then((result) => { timedOut = result.outcome === 'timeout'; }), () => {
      deps.budgets.ended(address, { startedAt, endedAt: deps.now(), timedOut });
      running -= 1;
    });
  };

  const dispatch = () => {
    if (failure || deps.shouldStop()) {
      waiting = [];
      ended = true;
    }
    if (!ended && !reading && waiting.length - heldBack < deps.lookahead) read();
    const taken = new Set<Waiting>();
    let wakeAt = Infinity;
    const now = deps.now();
    for (const item of waiting) {
      const located = item.located;
      if (located === undefined) {
        if (!lookingUp.has(item) && lookingUp.size < deps.limit) locate(item);
        continue;
      }
      // A full pool still looks up the links behind, so they are ready when a slot frees.
      if (running >= deps.limit) continue;
      if ('failed' in located) {
        taken.add(item);
        start(item, located);
        continue;
      }
      const admission = deps.budgets.admission(located.address.address, item.link.workspaceId, now);
      if (admission === 'busy') continue;
      if (typeof admission === 'number') {
        wakeAt = Math.min(wakeAt, admission);
        continue;
      }
      taken.add(item);
      if (admission === 'defer') {
        removeWaiting(located.address.address);
        deferred += 1;
      } else start(item, located);
    }
    waiting = waiting.filter((item) => !taken.has(item));
    wake(wakeAt, now);
    if (ended && !reading && running === 0 && lookingUp.size === 0 && waiting.length === 0) settle?.();
  };

  let timerAt = Infinity;
  const wake = (at: number, now: number) => {
    if (at >= timerAt) return;
    if (timer !== undefined) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Infinity;
      dispatch();
    }, Math.max(0, at - now));
  };

  return new Promise((resolve, reject) => {
    const onAbort = () => dispatch();
    deps.signal.addEventListener('abort', onAbort, { once: true });
    settle = () => {
      settle = undefined;
      if (timer !== undefined) clearTimeout(timer);
      deps.signal.removeEventListener('abort', onAbort);
      if (failure) reject(failure.error);
      else resolve({ deferred });
    };
    dispatch();
  });
}
