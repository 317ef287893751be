import type { Env } from './config-env-reader.js';

/** Names other software uses for the same thing, mapped to ours. */
const ALIASES: Record<string, string> = {
  DB_URL: 'DATABASE_URL',
  DB_URI: 'DATABASE_URL',
  DATABASE_URI: 'DATABASE_URL',
  POSTGRES_URL: 'DATABASE_URL',
  PG_URL: 'DATABASE_URL',
  SQLITE_PATH: 'DATABASE_URL',
  REDIS_URI: 'REDIS_URL',
  REDIS_HOST: 'REDIS_URL',
  LOGLEVEL: 'LOG_LEVEL',
  JWT_KEY: 'JWT_SECRET',
  BASEURL: 'BASE_URL',
  PUBLIC_URL: 'BASE_URL',
};

/**
 * One warning per variable that looks like one of ours but is not ("REDIS_URI is not a Linkforge
 * variable; did you mean REDIS_URL?"): a known alias, or a name at most one edit away from ours
 * (two for names of eight characters or more). Lowercase names and npm's are never ours.
 */
export function lookalikeWarnings(env: Env, known: ReadonlySet<string>): string[] {
  const warnings: string[] = [];
  for (const name of Object.keys(env)) {
    if (known.has(name) || name !== name.toUpperCase() || name.startsWith('NPM_')) continue;
    const meant = ALIASES[name] ?? nearest(name, known);
    if (meant) warnings.push(`${name} is not a Linkforge variable; did you mean ${meant}?`);
  }
  return warnings;
}

function nearest(name: string, known: ReadonlySet<string>): string | undefined {
  const allowed = name.length >= 8 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost one each. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}
