import type { LockState } from '../core/job-lock-ports.js';
import type { Clock } from '../core/ports.js';
import type { DatabaseLock, HeldLock } from './database-lock.js';

/** Why a run ended before running out of work; the rest waits for the next run. */
export type StopReason = 'time_limit' | 'shutdown';

export type RunTrigger = 'schedule' | 'manual';

/** What a run logs through; Fastify's and pino's loggers fit. */
export interface JobLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export const silentLogger: JobLogger = { info: () => {}, error: () => {} };

export interface RunOptions {
  readonly trigger?: RunTrigger;
  readonly log?: JobLogger;
}

/** A run's outcome: it ran (with what the job reports), or another instance holds the lock, or this one is stopping. */
export type JobResult<Report extends object> =
  | ({ readonly outcome: 'ran' } & Report)
  | { readonly outcome: 'locked'; readonly holder: LockState | undefined }
  | { readonly outcome: 'stopping' };

/**
 * The lifecycle every background job shares (the cleanup, the health check): take the database
 * lock or answer who holds it, do the work, release the lock whatever happened; remember the runs
 * in flight so that `stop()` can wait for them. A job says what one run does in `execute`; it
 * records its run there and turns its own failures into its report, so only a lock that cannot
 * be read (the database is down) rejects.
 */
export abstract class ExclusiveJob<Report extends object> {
  private stopping = false;
  private readonly stopController = new AbortController();
  private readonly inFlight = new Set<Promise<JobResult<Report>>>();

  /** `name` only words the log line of a lock that could not be released. */
  protected constructor(private readonly lock: DatabaseLock, protected readonly clock: Clock, private readonly name: string) {}

  get instance(): string {
    return this.lock.instance;
  }

  /** Runs once now if the lock is free. */
  run(options: RunOptions = {}): Promise<JobResult<Report>> {
    if (this.stopping) return Promise.resolve({ outcome: 'stopping' });
    const running = this.runLocked(options.trigger ?? 'manual', options.log ?? silentLogger);
    this.inFlight.add(running);
    const forget = () => this.inFlight.delete(running);
    running.then(forget, forget);
    return running;
  }

  /** Refuses new runs and tells the current one to stop (after its batch, or by aborting its checks). */
  requestStop(): void {
    this.stopping = true;
    this.stopController.abort();
  }

  /** requestStop, then waits until every run has recorded itself and released the lock. */
  async stop(): Promise<void> {
    this.requestStop();
    await Promise.allSettled([...this.inFlight]);
  }

  /** One run, under the lock `held`. */
  protected abstract execute(held: HeldLock, trigger: RunTrigger, log: JobLogger): Promise<Report>;

  /** Aborted once the job is told to stop: wakes a pause, aborts what listens. */
  protected get stopSignal(): AbortSignal {
    return this.stopController.signal;
  }

  protected get isStopping(): boolean {
    return this.stopping;
  }

  /** 'shutdown' once told to stop, 'time_limit' from `deadline` on, else null. */
  protected stopReason(deadline: number): StopReason | null {
    if (this.stopping) return 'shutdown';
    return this.clock.now() >= deadline ? 'time_limit' : null;
  }

  private async runLocked(trigger: RunTrigger, log: JobLogger): Promise<JobResult<Report>> {
    const held = await this.lock.tryAcquire();
    if (!held) return { outcome: 'locked', holder: await this.lock.findHolder().catch(() => undefined) };
    try {
      if (this.stopping) return { outcome: 'stopping' };
      return { outcome: 'ran', ...(await this.execute(held, trigger, log)) };
    } finally {
      await held.release().catch((error: unknown) => log.error({ err: error }, `${this.name} could not release its lock; it expires on its own`));
    }
  }
}
