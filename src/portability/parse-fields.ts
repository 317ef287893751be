/** Field parsers shared by the readers: each answers a value, or throws a sentence for the report. */

/** A value as a report quotes it: cut short, so that a rejected 1 MB cell does not make a 1 MB report line. */
export function quoted(value: string): string {
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

/** No export holds a time before the epoch or after the year 3000; past them a date is a mistake or an attack. */
const EARLIEST_TIME = 0;
const LATEST_TIME = Date.UTC(3000, 0, 1);
/** Far above any real link's counters, and far below where sums over many links stop being exact. */
export const MAX_COUNT = 1e12;
/** A redirect's latency, or an average of them, in milliseconds: an hour is already absurd. */
export const MAX_LATENCY_MS = 3_600_000;

const MYSQL_DATETIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)( ?(?:UTC|GMT|Z))?$/i;

/**
 * Dates as the exports write them: ISO 8601, `YYYY-MM-DD HH:MM:SS` (YOURLS, Bitly's web app;
 * read as UTC, the servers' usual zone), or epoch seconds or milliseconds. Empty is absent.
 */
export function parseTime(text: string | undefined, what: string): number | undefined {
  const value = text?.trim() ?? '';
  if (value === '') return undefined;
  if (/^\d{9,13}$/.test(value)) return value.length <= 10 ? Number(value) * 1000 : Number(value);
  const mysql = MYSQL_DATETIME.exec(value);
  const ms = mysql ? Date.parse(`${mysql[1]}T${mysql[2]}Z`) : Date.parse(value);
  if (Number.isNaN(ms)) throw new Error(`The ${what} ${quoted(value)} is not a date.`);
  if (ms < EARLIEST_TIME || ms >= LATEST_TIME) throw new Error(`The ${what} ${quoted(value)} is not between 1970 and 3000.`);
  return ms;
}

export function parseCount(text: string | undefined, what: string): number | undefined {
  const value = text?.trim() ?? '';
  if (value === '') return undefined;
  const n = Number(value.replace(/,/g, ''));
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`The ${what} ${quoted(value)} is not a count.`);
  if (n > MAX_COUNT) throw new Error(`The ${what} ${quoted(value)} is larger than ${MAX_COUNT}.`);
  return n;
}

export function parseNumber(text: string | undefined, what: string, max: number): number | undefined {
  const value = text?.trim() ?? '';
  if (value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`The ${what} ${quoted(value)} is not a number.`);
  if (n > max) throw new Error(`The ${what} ${quoted(value)} is larger than ${max}.`);
  return n;
}

/** The back-half of a short link as exports print it: `https://bit.ly/abc`, `bit.ly/abc`, or `abc`. */
export function codeOfShortLink(text: string | undefined): string {
  const value = text?.trim() ?? '';
  if (value === '') return '';
  if (!value.includes('/')) return value;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
    return decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  } catch {
    return value;
  }
}

/** Header names compared loosely: `Destination URL`, `destination_url` and `destinationUrl` are one. */
export function headerKey(name: string): string {
  return name.replace(/^\uFEFF/, '').toLowerCase().replace(/[\s_-]+/g, '');
}
