import type { LinkJson } from './api.js';

export const dateTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

export const latency = (ms: number) => (ms > 0 ? `${ms.toFixed(ms < 10 ? 2 : 1)} ms` : '—');

/** The destination check's answer in words (ADR 0015): null before the first check, 0 when unreachable. */
export function health(link: Pick<LinkJson, 'destinationStatus'>): { text: string; tone: 'ok' | 'bad' | 'unknown' } {
  const status = link.destinationStatus;
  if (status === null) return { text: 'Not checked yet', tone: 'unknown' };
  if (status === 0) return { text: 'Unreachable', tone: 'bad' };
  if (status < 400) return { text: `OK (${status})`, tone: 'ok' };
  return { text: `Error (${status})`, tone: 'bad' };
}

/** `<input type="datetime-local">` speaks local time without a zone; the API speaks ISO 8601 UTC. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export const fromLocalInput = (value: string): string | null => (value ? new Date(value).toISOString() : null);

/** A number in the browser's locale (`1,234`, `1 234`, `1.234`). */
export const count = (n: number) => n.toLocaleString();

/**
 * A bucket's start in the browser's locale: an hour in local time, a day as the UTC day the stats
 * count by (local time would put a UTC midnight on the evening before, west of Greenwich).
 */
export function bucketFormat(interval: 'hour' | 'day'): (ms: number) => string {
  const format = interval === 'hour'
    ? new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })
    : new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
  return (ms) => format.format(ms);
}

/** The chart's axis ticks: shorter than bucketFormat, in the same locale and zone. */
export function axisFormat(interval: 'hour' | 'day'): (ms: number) => string {
  const format = interval === 'hour'
    ? new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: 'numeric' })
    : new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', month: 'short', day: 'numeric' });
  return (ms) => format.format(ms);
}

/** A share as a percentage in the browser's locale, one decimal under 10 % (`4.2 %`, `37 %`). */
export function share(part: number, whole: number): string {
  const ratio = whole > 0 ? part / whole : 0;
  return ratio.toLocaleString(undefined, { style: 'percent', maximumFractionDigits: ratio < 0.1 ? 1 : 0 });
}
