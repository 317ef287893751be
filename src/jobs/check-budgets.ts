/** How a run shares itself out between destinations and workspaces (docs/adr/0015). */
export interface CheckBudgetSettings {
  /** Pause between the end of one check of an address and the start of the next one. */
  readonly addressIntervalMs: number;
  /** Time spent checking one address in a run; past it, its other links wait for the next run. */
  readonly addressBudgetMs: number;
  /** Checks of one address that time out in a run before its other links wait for the next run. */
  readonly addressTimeoutLimit: number;
  /** Checks started for one workspace's links in a run (anonymous links count as one workspace). */
  readonly workspaceBudget: number;
}

/** 'now', or not yet ('busy': a check of the address runs; a number: when its pause ends), or 'defer' to the next run. */
export type Admission = 'now' | 'busy' | 'defer' | number;

interface AddressUse {
  busy: boolean;
  readyAt: number;
  spentMs: number;
  timeouts: number;
}

/** One run's account of each address and workspace; times are monotonic milliseconds. */
export class CheckBudgets {
  private readonly addresses = new Map<string, AddressUse>();
  private readonly workspaces = new Map<number | null, number>();

  constructor(private readonly settings: CheckBudgetSettings) {}

  admission(address: string, workspaceId: number | null, now: number): Admission {
    const { settings } = this;
    if ((this.workspaces.get(workspaceId) ?? 0) >= settings.workspaceBudget) return 'defer';
    const use = this.addresses.get(address);
    if (use === undefined) return 'now';
    if (use.timeouts >= settings.addressTimeoutLimit || use.spentMs >= settings.addressBudgetMs) return 'defer';
    if (use.busy) return 'busy';
    return use.readyAt > now ? use.readyAt : 'now';
  }

  started(address: string, workspaceId: number | null): void {
    const use = this.addresses.get(address) ?? { busy: false, readyAt: 0, spentMs: 0, timeouts: 0 };
    use.busy = true;
    this.addresses.set(address, use);
    this.workspaces.set(workspaceId, (this.workspaces.get(workspaceId) ?? 0) + 1);
  }

  ended(address: string, check: { readonly startedAt: number; readonly endedAt: number; readonly timedOut: boolean }): void {
    const use = this.addresses.get(address);
    if (use === undefined) return;
    use.busy = false;
    use.spentMs += check.endedAt - check.startedAt;
    use.readyAt = check.endedAt + this.settings.addressIntervalMs;
    if (check.timedOut) use.timeouts += 1;
  }
}
