import type { JobLogger } from './exclusive-job.js';

/** What the scheduler runs: the cleanup, the health check. A rejection means the lock could not be read. */
export interface ScheduledJob {
  run(options: { trigger: 'schedule'; log?: JobLogger }): Promise<unknown>;
}

export interface JobSchedulerOptions {
  readonly initialDelayMs: number;
  readonly intervalMs: number;
}

/**
 * Runs a job (the cleanup, the health check) `initialDelayMs` after start, then every `intervalMs`
 * (measured from the start of the previous run; a run longer than the interval is followed at
 * once, never overlapped).
 * Timers are unref'd: the scheduler never keeps a process alive on its own.
 */
export class JobScheduler {
  private timer: NodeJS.Timeout | undefined;
  private tick: Promise<void> | undefined;
  private started = false;
  private stopped = false;

  constructor(private readonly job: ScheduledJob, private readonly options: JobSchedulerOptions) {}

  get isStarted(): boolean {
    return this.started && !this.stopped;
  }

  start(log?: JobLogger): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.schedule(this.options.initialDelayMs, log);
  }

  /** No further runs; waits for the run in progress, if any (stop the job to cut it short). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.tick;
  }

  private schedule(delayMs: number, log: JobLogger | undefined): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tick = this.runOnce(log);
    }, delayMs);
    this.timer.unref();
  }

  private async runOnce(log: JobLogger | undefined): Promise<void> {
    const started = performance.now();
    try {
      await this.job.run({ trigger: 'schedule', log });
    } catch (error) {
      log?.error({ err: error }, 'job could not take its lock (database unavailable?); retrying at the next interval');
    }
    this.schedule(Math.max(0, this.options.intervalMs - (performance.now() - started)), log);
  }
}
