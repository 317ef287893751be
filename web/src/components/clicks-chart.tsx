import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { LinkStats } from '../api.js';

/**
 * Clicks over time, one line per visitor class, drawn by uPlot on a canvas. The same numbers are
 * in the table under it (ClicksTable), which is what assistive technology reads.
 */
export function ClicksChart({ stats }: { stats: LinkStats }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const x = stats.series.map((bucket) => Date.parse(bucket.start) / 1000);
    const data: uPlot.AlignedData = [
      x,
      stats.series.map((b) => b.clicks.human),
      stats.series.map((b) => b.clicks.bot),
      stats.series.map((b) => b.clicks.preview),
    ];
    const width = () => Math.max(280, element.clientWidth);
    const plot = new uPlot({
      width: width(),
      height: 240,
      series: [
        {},
        { label: 'People', stroke: '#2250c8', width: 2 },
        { label: 'Bots', stroke: '#b44d12', width: 2 },
        { label: 'Previews', stroke: '#2f7d32', width: 2 },
      ],
      axes: [{}, { label: 'Clicks' }],
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    }, data, element);
    const onResize = () => plot.setSize({ width: width(), height: 240 });
    window.addEventListener('resize', onResize);
    return () => { window.removeEventListener('resize', onResize); plot.destroy(); };
  }, [stats]);
  return <div ref={box} class="chart" role="img" aria-label={`Clicks per ${stats.interval}: ${stats.totals.total} in total, ${stats.totals.human} by people`} />;
}
