import { LogDestination } from './log-destination.js';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
/** pino's fields that the line's start already says, or that a person at a terminal does not need. */
const SHOWN_ELSEWHERE = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'err']);

/**
 * One of pino's JSON lines as a person reads it at a terminal: `12:00:00.000 INFO  message key=value`,
 * an error's stack on the lines after. A line that is not JSON is left as it is.
 */
export function prettyLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const level = LEVELS[entry.level as number] ?? String(entry.level);
  const fields = Object.entries(entry).filter(([key]) => !SHOWN_ELSEWHERE.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const stack = err ? `\n    ${(err.stack ?? err.message ?? '').split('\n').join('\n    ')}` : '';
  return `${time} ${level} ${String(entry.msg ?? '')}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}${stack}\n`;
}

/** The log on a terminal: each line made readable, then written like any other (dropped, never retried, when it cannot be). */
export class PrettyLogDestination extends LogDestination {
  override write(line: string): void {
    super.write(prettyLine(line));
  }
}

/** Where the process logs by default: readable lines when stdout is a terminal, JSON lines otherwise (a collector reads them). */
export function stdoutDestination(isTerminal = process.stdout.isTTY === true): LogDestination {
  return isTerminal ? new PrettyLogDestination() : new LogDestination();
}
