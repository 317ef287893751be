import { Field } from './field.js';

/** The click limit and the fallback URL as typed: text, so that a half-typed number stays as it is. */
export interface ClickLimitValues {
  readonly maxClicks: string;
  readonly fallbackUrl: string;
}

interface LimitedLink {
  readonly maxClicks: number | null;
  readonly clicksLeft: number | null;
  readonly fallbackUrl: string | null;
}

export const NO_CLICK_LIMIT: ClickLimitValues = { maxClicks: '', fallbackUrl: '' };

export function clickLimitValuesOf(link: LimitedLink): ClickLimitValues {
  return { maxClicks: link.maxClicks === null ? '' : String(link.maxClicks), fallbackUrl: link.fallbackUrl ?? '' };
}

/** What a create sends: only what was filled in. */
export function clickLimitCreateBody(values: ClickLimitValues): { maxClicks?: number; fallbackUrl?: string } {
  return {
    ...(values.maxClicks.trim() !== '' && { maxClicks: Number(values.maxClicks) }),
    ...(values.fallbackUrl.trim() !== '' && { fallbackUrl: values.fallbackUrl.trim() }),
  };
}

/**
 * What an edit sends: only what changed, since setting the limit gives back all of its clicks (an
 * unchanged limit must not). Emptied fields send null, which removes them.
 */
export function clickLimitChanges(link: LimitedLink, values: ClickLimitValues): { maxClicks?: number | null; fallbackUrl?: string | null } {
  const maxClicks = values.maxClicks.trim() === '' ? null : Number(values.maxClicks);
  const fallbackUrl = values.fallbackUrl.trim() === '' ? null : values.fallbackUrl.trim();
  return {
    ...(maxClicks !== link.maxClicks && { maxClicks }),
    ...(fallbackUrl !== link.fallbackUrl && { fallbackUrl }),
  };
}

/** "3 of 10 clicks left", "Used up", or undefined for a link without a limit. */
export function clicksLeftText(link: LimitedLink): string | undefined {
  if (link.maxClicks === null || link.clicksLeft === null) return undefined;
  if (link.clicksLeft === 0) return 'Used up';
  return `${link.clicksLeft} of ${link.maxClicks} clicks left`;
}

/** The two inputs, with their errors (`maxClicks`, `fallbackUrl`) under them. */
export function ClickLimitFields({ id, values, onChange, errors }: {
  id: string;
  values: ClickLimitValues;
  onChange: (values: ClickLimitValues) => void;
  errors: Record<string, string | undefined>;
}) {
  return (
    <>
      <Field id={`${id}-max-clicks`} label="Stop after N clicks (optional)" type="number" min={1} step={1} inputMode="numeric" value={values.maxClicks}
        onInput={(e) => onChange({ ...values, maxClicks: e.currentTarget.value })} error={errors.maxClicks}
        hint="Counts people only: crawlers, link previews and mail scanners do not use a click." />
      <Field id={`${id}-fallback-url`} label="Fallback URL (optional)" type="url" value={values.fallbackUrl}
        onInput={(e) => onChange({ ...values, fallbackUrl: e.currentTarget.value })} error={errors.fallbackUrl}
        hint="Where visitors go once the link is used up, expired or deleted, instead of an error page." />
    </>
  );
}
