/** The time range the link page's analytics cover, and the stats request it makes (GET /api/urls/{id}/stats). */

export type RangePreset = '24h' | '7d' | '30d' | '90d';
export type StatsInterval = 'hour' | 'day';

export interface StatsRange {
  /** A preset, or `custom` for two dates the user picked. */
  readonly kind: RangePreset | 'custom';
  readonly from: string;
  /** Exclusive; absent for presets, which end now (the API's default: the bucket holding now). */
  readonly to?: string;
  readonly interval: StatsInterval;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Hourly buckets up to two days (at most 49 points); beyond, hours would be a comb of spikes, so days. */
export const HOURLY_UP_TO_MS = 48 * HOUR;
/** The API's bound on daily buckets (MAX_STATS_BUCKETS in src/links/get-link-stats.ts). */
const MAX_DAYS = 366;

export const PRESETS: readonly { kind: RangePreset; label: string; ms: number }[] = [
  { kind: '24h', label: '24 hours', ms: DAY },
  { kind: '7d', label: '7 days', ms: 7 * DAY },
  { kind: '30d', label: '30 days', ms: 30 * DAY },
  { kind: '90d', label: '90 days', ms: 90 * DAY },
];

export const intervalFor = (spanMs: number): StatsInterval => (spanMs <= HOURLY_UP_TO_MS ? 'hour' : 'day');

export function presetRange(kind: RangePreset, now = Date.now()): StatsRange {
  const ms = PRESETS.find((preset) => preset.kind === kind)!.ms;
  return { kind, from: new Date(now - ms).toISOString(), interval: intervalFor(ms) };
}

/** `YYYY-MM-DD` in the browser's time zone, as `<input type="date">` speaks it. */
export function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** From the start of `fromDate` to the end of `toDate`, both local days; or why the two dates do not make a range. */
export function customRange(fromDate: string, toDate: string): StatsRange | { error: string } {
  const from = new Date(`${fromDate}T00:00`);
  const end = new Date(`${toDate}T00:00`);
  if (Number.isNaN(from.getTime()) || Number.isNaN(end.getTime())) return { error: 'Pick a first and a last day.' };
  end.setDate(end.getDate() + 1);
  const span = end.getTime() - from.getTime();
  if (span <= 0) return { error: 'The first day must not be after the last day.' };
  if (span > MAX_DAYS * DAY) return { error: `A range can span at most ${MAX_DAYS} days.` };
  return { kind: 'custom', from: from.toISOString(), to: end.toISOString(), interval: intervalFor(span) };
}

export function statsQuery(range: StatsRange): string {
  const query = new URLSearchParams({ from: range.from, interval: range.interval });
  if (range.to) query.set('to', range.to);
  return query.toString();
}

/** The CSV export's query for `range`: the same from and to as the stats, no interval. */
export function csvQuery(range: StatsRange): string {
  const query = new URLSearchParams({ from: range.from });
  if (range.to) query.set('to', range.to);
  return query.toString();
}

/** The range a link page opens with: the one in its address (`?range=7d`, or `?from=…&to=…` as days), else 30 days. */
export function rangeFromSearch(search: URLSearchParams, now = Date.now()): StatsRange {
  const preset = PRESETS.find((p) => p.kind === search.get('range'));
  if (preset) return presetRange(preset.kind, now);
  const from = search.get('from');
  const to = search.get('to');
  if (from && to) {
    const custom = customRange(from, to);
    if (!('error' in custom)) return custom;
  }
  return presetRange('30d', now);
}

/** The address's query for `range`, so that reload, Back and a shared address keep it. */
export function searchOfRange(range: StatsRange): string {
  if (range.kind !== 'custom') return `?range=${range.kind}`;
  const last = new Date(Date.parse(range.to!) - 1);
  return `?from=${localDate(new Date(range.from))}&to=${localDate(last)}`;
}
