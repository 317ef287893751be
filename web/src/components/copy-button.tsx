import { useState } from 'preact/hooks';

/** Copies `text` to the clipboard and says so in a live region; falls back to selecting nothing silently. */
export function CopyButton({ text, label = 'Copy', name }: { text: string; label?: string; /** The accessible name, when many buttons share one label. */ name?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span class="copy">
      <button type="button" class="secondary" onClick={copy} aria-label={name}>{label}</button>
      <span role="status" class="copy-status">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text instead' : ''}</span>
    </span>
  );
}
