import { ValidationError } from './errors.js';

/** The largest click limit: well inside the 32-bit integer column of both databases. */
export const MAX_CLICKS = 1_000_000_000;

/** A click limit as a request gives it: a whole number from 1 to MAX_CLICKS, or null for none. */
export function assertMaxClicks(value: unknown, field: string): asserts value is number | null | undefined {
  if (value === undefined || value === null) return;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_CLICKS) return;
  throw new ValidationError('max_clicks_invalid', `${field}: give a whole number from 1 to ${MAX_CLICKS}, or null for no limit.`, { field });
}
