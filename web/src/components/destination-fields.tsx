import { useState } from 'preact/hooks';
import { rememberedUtm, rememberUtm, withScheme, withUtm, type Utm } from '../destination.js';
import { Field } from './field.js';
import { UtmBuilder } from './utm-builder.js';

/**
 * The destination as typed plus its UTM values, remembered per workspace (`utmScope`). `final()`
 * is what the API receives: `https://` added when no scheme was typed, then the UTM fields.
 */
export function useDestination(utmScope: string) {
  const [url, setUrl] = useState('');
  const [utm, setUtmState] = useState<{ scope: string; values: Utm }>(() => ({ scope: utmScope, values: rememberedUtm(utmScope) }));
  const values = utm.scope === utmScope ? utm.values : rememberedUtm(utmScope);
  const setUtm = (next: Utm) => {
    rememberUtm(utmScope, next);
    setUtmState({ scope: utmScope, values: next });
  };
  return { url, setUrl, utm: values, setUtm, final: () => withUtm(withScheme(url), values) };
}

type Destination = ReturnType<typeof useDestination>;

/** The URL field (completed with `https://` when it loses focus) and the UTM builder, with the URL the link will send to. */
export function DestinationFields({ id, destination, error }: { id: string; destination: Destination; error?: string }) {
  const { url, setUrl, utm, setUtm, final } = destination;
  const complete = url.trim() && final() !== url.trim() ? final() : undefined;
  return (
    <>
      <Field id={id} label="Long URL" type="url" inputMode="url" autoComplete="url" required placeholder="example.com/a/long/path"
        value={url} onInput={(e) => setUrl(e.currentTarget.value)} onBlur={() => setUrl(withScheme(url))} error={error} />
      <UtmBuilder idPrefix={id} utm={utm} onChange={setUtm} />
      {complete && <p class="hint destination" data-testid="final-url">Sends visitors to <span>{complete}</span></p>}
    </>
  );
}
