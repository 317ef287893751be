import { useState } from 'preact/hooks';
import { FormError } from './field.js';
import { customRange, localDate, presetRange, PRESETS, type StatsRange } from '../stats-range.js';
import './range-picker.css';

const DAY = 86_400_000;

/** The analytics range: four presets as toggle buttons, or two days of the user's choosing. */
export function RangePicker({ range, onChange }: { range: StatsRange; onChange: (range: StatsRange) => void }) {
  const [customOpen, setCustomOpen] = useState(range.kind === 'custom');
  const [from, setFrom] = useState(localDate(new Date(range.kind === 'custom' ? range.from : Date.now() - 6 * DAY)));
  const [to, setTo] = useState(localDate(range.kind === 'custom' ? new Date(Date.parse(range.to!) - 1) : new Date()));
  const [error, setError] = useState<string>();
  const apply = (event: Event) => {
    event.preventDefault();
    const picked = customRange(from, to);
    if ('error' in picked) { setError(picked.error); return; }
    setError(undefined);
    onChange(picked);
  };
  return (
    <div class="range-picker">
      <div role="group" aria-label="Clicks in the last" class="segmented">
        {PRESETS.map((preset) => (
          <button key={preset.kind} type="button" class="secondary" aria-pressed={range.kind === preset.kind}
            onClick={() => { setCustomOpen(false); onChange(presetRange(preset.kind)); }}>
            {preset.label}
          </button>
        ))}
        <button type="button" class="secondary" aria-pressed={range.kind === 'custom'} aria-expanded={customOpen} aria-controls="custom-range"
          onClick={() => setCustomOpen(!customOpen)}>Custom</button>
      </div>
      {customOpen && (
        <form id="custom-range" class="custom-range" onSubmit={apply} noValidate>
          <div class="field"><label for="range-from">First day</label>
            <input id="range-from" type="date" value={from} max={to} onInput={(e) => setFrom(e.currentTarget.value)} /></div>
          <div class="field"><label for="range-to">Last day</label>
            <input id="range-to" type="date" value={to} min={from} onInput={(e) => setTo(e.currentTarget.value)} /></div>
          <button type="submit">Show</button>
          <FormError message={error} />
        </form>
      )}
    </div>
  );
}
