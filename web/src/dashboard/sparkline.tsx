const WIDTH = 56;
const HEIGHT = 16;

/** A small line of daily clicks, oldest first; decorative: the numbers beside it say the same in words. */
export function Sparkline({ values }: { values: readonly number[] }) {
  const top = Math.max(1, ...values);
  const step = values.length > 1 ? WIDTH / (values.length - 1) : WIDTH;
  const points = values.map((value, i) => `${(i * step).toFixed(1)},${(HEIGHT - 1 - (value / top) * (HEIGHT - 2)).toFixed(1)}`).join(' ');
  return (
    <svg class="sparkline" width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false">
      <polyline points={points} fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" />
    </svg>
  );
}
