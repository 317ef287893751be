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
  return new CheckDispatch(deps).settled;
}

/** The state of one dispatch; every event (a page read, a lookup or check ended, a pause over, an abort) calls `dispatch`. */
class CheckDispatch {
  readonly settled: Promise<{ deferred: number }>;
  private waiting: Waiting[] = [];
  private readonly waitingByAddress = new Map<string, number>();
  private readonly lookingUp = new Set<Waiting>();
  private reading = false;
  private ended = false;
  private running = 0;
  private deferred = 0;
  private heldBack = 0;
  private failure: { error: unknown } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private settle: (() => void) | undefined;

  constructor(private readonly deps: CheckDispatcherDeps) {
    this.settled = new Promise((resolve, reject) => {
      const onAbort = () => this.dispatch();
      deps.signal.addEventListener('abort', onAbort, { once: true });
      this.settle = () => {
        this.settle = undefined;
        if (this.timer !== undefined) clearTimeout(this.timer);
        deps.signal.removeEventListener('abort', onAbort);
        if (this.failure) reject(this.failure.error);
        else resolve({ deferred: this.deferred });
      };
      this.dispatch();
    });
  }

  private dispatch(): void {
    const { deps } = this;
    if (this.failure || deps.shouldStop()) {
      this.waiting = [];
      this.ended = true;
    }
    if (!this.ended && !this.reading && this.waiting.length - this.heldBack < deps.lookahead) this.read();
    const taken = new Set<Waiting>();
    let wakeAt = Infinity;
    const now = deps.now();
    for (const item of this.waiting) {
      const located = item.located;
      if (located === undefined) {
        if (!this.lookingUp.has(item) && this.lookingUp.size < deps.limit) this.locate(item);
        continue;
      }
      // A full pool still looks up the links behind, so they are ready when a slot frees.
      if (this.running >= deps.limit) continue;
      const admission = 'failed' in located ? 'now' : deps.budgets.admission(located.address.address, item.link.workspaceId, now);
      if (admission === 'busy') continue;
      if (typeof admission === 'number') {
        wakeAt = Math.min(wakeAt, admission);
        continue;
      }
      taken.add(item);
      if (admission === 'defer') this.defer(located);
      else this.start(item, located);
    }
    this.waiting = this.waiting.filter((item) => !taken.has(item));
    this.wake(wakeAt, now);
    if (this.ended && !this.reading && this.running === 0 && this.lookingUp.size === 0 && this.waiting.length === 0) this.settle?.();
  }

  private track(work: Promise<unknown>, onEnd: () => void): void {
    work.catch((error: unknown) => { this.failure ??= { error }; }).finally(() => {
      onEnd();
      this.dispatch();
    });
  }

  private read(): void {
    this.reading = true;
    this.track(this.deps.nextPage().then((links) => {
      if (links.length === 0) this.ended = true;
      this.waiting.push(...links.map((link) => ({ link })));
    }), () => { this.reading = false; });
  }

  private locate(item: Waiting): void {
    const { deps } = this;
    this.lookingUp.add(item);
    this.track(deps.locate(item.link).then((located) => {
      if (!this.waiting.includes(item)) return;
      const address = 'address' in located ? located.address.address : undefined;
      if (address !== undefined && this.heldBack >= deps.maxHeldBack && (this.waitingByAddress.get(address) ?? 0) >= deps.waitingPerAddress) {
        this.waiting = this.waiting.filter((other) => other !== item);
        this.deferred += 1;
        return;
      }
      if (address !== undefined) this.addWaiting(address);
      item.located = located;
    }), () => { this.lookingUp.delete(item); });
  }

  private start(item: Waiting, located: Located): void {
    const { deps } = this;
    this.running += 1;
    if ('failed' in located) return this.track(deps.recordFailure(item.link, located.failed), () => { this.running -= 1; });
    const address = located.address.address;
    this.removeWaiting(address);
    deps.budgets.started(address, item.link.workspaceId);
    const startedAt = deps.now();
    let timedOut = false;
    this.track(deps.check(item.link, located.address).then((result) => { timedOut = result.outcome === 'timeout'; }), () => {
      deps.budgets.ended(address, { startedAt, endedAt: deps.now(), timedOut });
      this.running -= 1;
    });
  }

  private defer(located: Located): void {
    if ('address' in located) this.removeWaiting(located.address.address);
    this.deferred += 1;
  }

  private addWaiting(address: string): void {
    const before = this.waitingByAddress.get(address) ?? 0;
    if (before >= this.deps.waitingPerAddress) this.heldBack += 1;
    this.waitingByAddress.set(address, before + 1);
  }

  private removeWaiting(address: string): void {
    const before = this.waitingByAddress.get(address) ?? 0;
    if (before > this.deps.waitingPerAddress) this.heldBack -= 1;
    if (before > 1) this.waitingByAddress.set(address, before - 1);
    else this.waitingByAddress.delete(address);
  }

  private wake(at: number, now: number): void {
    if (at >= this.timerAt) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.dispatch();
    }, Math.max(0, at - now));
  }
}
