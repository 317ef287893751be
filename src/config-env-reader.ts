import ms from 'ms';

/** The environment as given, unparsed: the process environment in production, a literal in tests. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Parses `250ms`, `2s`, `15m`, `8h`, `7d` or plain milliseconds. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!/^\d+(\.\d+)?\s*(ms|s|m|h|d)$/.test(trimmed)) return undefined;
  const value = ms(trimmed as ms.StringValue);
  return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

/**
 * Reads one variable at a time and collects every problem instead of throwing on the first, so
 * that start-up lists them all at once. A blank value counts as unset.
 */
export class EnvReader {
  readonly problems: string[] = [];
  /** Every name asked for: the variables Linkforge knows. */
  readonly known = new Set<string>();
  constructor(private readonly env: Env) {}

  private raw(name: string): string | undefined {
    this.known.add(name);
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optional(name: string): string | undefined {
    return this.raw(name);
  }

  int(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max} (got "${text}")`);
      return fallback;
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const text = this.raw(name)?.toLowerCase();
    if (text === undefined) return fallback;
    if (['true', '1', 'yes', 'on'].includes(text)) return true;
    if (['false', '0', 'no', 'off'].includes(text)) return false;
    this.problems.push(`${name} must be true or false (got "${text}")`);
    return fallback;
  }

  duration(name: string, fallback: string): number {
    const text = this.raw(name) ?? fallback;
    const value = parseDuration(text);
    if (value === undefined) {
      this.problems.push(`${name} must be a duration like 250ms, 2s, 15m, 8h, 7d or plain milliseconds (got "${text}")`);
      return parseDuration(fallback) ?? 0;
    }
    return value;
  }

  oneOf<T extends string | number>(name: string, fallback: T, allowed: readonly T[]): T {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    const match = allowed.find((candidate) => String(candidate) === text);
    if (match === undefined) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${text}")`);
      return fallback;
    }
    return match;
  }
}
