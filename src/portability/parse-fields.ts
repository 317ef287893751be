/** Field parsers shared by the readers: each answers a value, or throws a sentence for the report. */

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
  if (Number.isNaN(ms)) throw new Error(`The ${what} "${value}" is not a date.`);
  return ms;
}

export function parseCount(text: string | undefined, what: string): number | undefined {
  const value = text?.trim() ?? '';
  if (value === '') return undefined;
  const n = Number(value.replace(/,/g, ''));
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`The ${what} "${value}" is not a count.`);
  return n;
}

export function parseNumber(text: string | undefined, what: string): number | undefined {
  const value = text?.trim() ?? '';
  if (value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`The ${what} "${value}" is not a number.`);
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
