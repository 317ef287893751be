import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

/** pino's numeric levels, highest first. */
const LEVELS = { fatal: 60, error: 50, warn: 40, info: 30, debug: 20, trace: 10 } as const;
type Level = keyof typeof LEVELS;

/**
 * A request's logger that becomes a pino child (with the request id bound) only when it writes a
 * line: a request that logs nothing at the configured level (a create at `warn`) allocates no
 * child, its bindings serialized for nothing (ADR 0018). Lines it writes are the child's, byte for byte.
 */
export class LazyRequestLogger {
  private real: Logger | undefined;

  constructor(private readonly parent: Logger, private readonly bindings: Bindings) {}

  get level(): string {
    return (this.real ?? this.parent).level;
  }

  set level(level: string) {
    this.child$().level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}

  isLevelEnabled(level: string): boolean {
    return (this.real ?? this.parent).isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.child$().child(bindings, options);
  }

  private write(level: Level, args: unknown[]): void {
    const logger = this.real ?? this.parent;
    if (logger.levelVal > LEVELS[level]) return;
    (this.child$()[level] as (...a: unknown[]) => void)(...args);
  }

  /** The pino child, made on first use. */
  private child$(): Logger {
    this.real ??= this.parent.child(this.bindings);
    return this.real;
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy child, unless the route asks for options of its own
 * (a level or serializers), which only a real child carries.
 */
export function lazyChildLoggerFactory(logger: Logger, bindings: Bindings, options: ChildLoggerOptions): Logger {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new LazyRequestLogger(logger, bindings) as unknown as Logger;
}
