import os from 'node:os';

/** Bench settings from the environment: a bad value stops the bench before it seeds anything. */
export function envInt(name: string, fallback: number, min: number): number {
  const text = process.env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min} (got "${text}")`);
  return value;
}

export function envBool(name: string, fallback: boolean): boolean {
  const text = process.env[name]?.trim().toLowerCase();
  return text ? ['1', 'true', 'yes', 'on'].includes(text) : fallback;
}

/** A comma-separated choice among `allowed`; unset means `fallback` (all of them unless told). */
export function envList<T extends string>(name: string, allowed: readonly T[], fallback: readonly T[] = allowed): ReadonlySet<T> {
  const text = process.env[name]?.trim();
  if (!text) return new Set(fallback);
  const chosen = text.split(',').map((item) => item.trim()).filter(Boolean);
  const unknown = chosen.filter((item) => !allowed.includes(item as T));
  if (unknown.length > 0) throw new Error(`${name}: unknown ${unknown.join(', ')} (choose from ${allowed.join(', ')})`);
  return new Set(chosen as T[]);
}

/** The machine's load average, for the report: other work on it skews the figures. */
export const loadAverage = () => os.loadavg().map((load) => load.toFixed(2)).join(' ');
