import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { LinkStats } from '../api.js';
import { axisFormat, bucketFormat } from '../format.js';

const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;
const TICK_STEPS = {
  hour: [HOUR_S, 2 * HOUR_S, 3 * HOUR_S, 6 * HOUR_S, 12 * HOUR_S, DAY_S],
  day: [DAY_S, 2 * DAY_S, 7 * DAY_S, 14 * DAY_S, 30 * DAY_S, 60 * DAY_S, 90 * DAY_S],
};

/**
 * Draws the clicks chart with uPlot on a canvas; loaded on demand (clicks-chart.tsx), so that uPlot
 * is a chunk of its own that only the link page fetches. Colours come from the theme's custom
 * properties (theme.css), read when drawing, so a dark system theme gets the dark ones.
 */
export function drawClicksPlot(element: HTMLElement, stats: Omit<LinkStats, 'linkId'>): () => void {
  const theme = getComputedStyle(document.documentElement);
  const color = (name: string) => theme.getPropertyValue(name).trim();
  const x = stats.series.map((bucket) => Date.parse(bucket.start) / 1000);
  const data: uPlot.AlignedData = [
    x,
    stats.series.map((b) => b.clicks.human),
    stats.series.map((b) => b.uniqueVisitors),
    stats.series.map((b) => b.clicks.bot),
    stats.series.map((b) => b.clicks.preview),
  ];
  const axisLabel = axisFormat(stats.interval);
  const valueLabel = bucketFormat(stats.interval);
  const axis = { stroke: color('--ink'), grid: { stroke: color('--line'), width: 1 }, ticks: { stroke: color('--line'), width: 1 } };
  const width = () => Math.max(280, element.clientWidth);
  const plot = new uPlot({
    width: width(),
    height: 240,
    // Daily buckets are UTC days: their ticks fall on UTC midnights, whatever the browser's zone.
    ...(stats.interval === 'day' ? { tzDate: (ts: number) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') } : {}),
    series: [
      { value: (_u, ts) => (ts == null ? '—' : valueLabel(ts * 1000)) },
      { label: 'People', stroke: color('--series-human'), width: 2 },
      // People counted once per day (an hour: first seen in it), dashed beside the people's clicks (ADR 0028).
      { label: 'Unique visitors', stroke: color('--series-visitors'), width: 2, dash: [6, 4] },
      { label: 'Bots', stroke: color('--series-bot'), width: 2 },
      { label: 'Previews', stroke: color('--series-preview'), width: 2 },
    ],
    axes: [
      // Ticks only on whole buckets: never two "Nov 20" under one day.
      { ...axis, incrs: TICK_STEPS[stats.interval], values: (_u, splits) => splits.map((ts) => axisLabel(ts * 1000)) },
      { ...axis, label: 'Clicks' },
    ],
    scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
  }, data, element);
  const onResize = () => plot.setSize({ width: width(), height: 240 });
  window.addEventListener('resize', onResize);
  return () => { window.removeEventListener('resize', onResize); plot.destroy(); };
}
