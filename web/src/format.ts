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
