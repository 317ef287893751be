import { useEffect, useRef, useState } from 'preact/hooks';
import './preview-fields.css';
import { ExternalUrl } from './external-url.js';
import { Field } from './field.js';
import type { LinkJson } from '../api.js';

export type LinkPreview = NonNullable<LinkJson['preview']>;
/** The three inputs as typed: empty text is a part left out. */
export interface PreviewInputs { title: string; description: string; image: string }

export const EMPTY_PREVIEW: PreviewInputs = { title: '', description: '', image: '' };

export function previewInputsOf(preview: LinkJson['preview']): PreviewInputs {
  return { title: preview?.title ?? '', description: preview?.description ?? '', image: preview?.image ?? '' };
}

/** What the API takes: the parts given, trimmed, or null when none is (on an edit, null removes the preview). */
export function previewOf(inputs: PreviewInputs): LinkPreview | null {
  const parts = Object.entries(inputs).map(([key, value]) => [key, value.trim()] as const).filter(([, value]) => value !== '');
  return parts.length === 0 ? null : Object.fromEntries(parts) as LinkPreview;
}

/** Whether the inputs say something other than the link's stored preview. */
export function previewChanged(inputs: PreviewInputs, stored: LinkJson['preview']): boolean {
  return JSON.stringify(previewOf(inputs)) !== JSON.stringify(previewOf(previewInputsOf(stored)));
}

/**
 * "Link preview": the card chat apps and social networks show when the link is posted, instead of
 * the destination's own. Open at first only while the link has one, and on an error of its own. Errors come keyed by the
 * API's field names (`preview.title`, `preview.image` …).
 */
export function PreviewFields({ id, value, onChange, errors }: {
  id: string; value: PreviewInputs; onChange: (value: PreviewInputs) => void; errors: Record<string, string | undefined>;
}) {
  const set = (key: keyof PreviewInputs) => (event: { currentTarget: HTMLInputElement }) => onChange({ ...value, [key]: event.currentTarget.value });
  const details = useRef<HTMLDetailsElement>(null);
  const [openAtFirst] = useState(previewOf(value) !== null);
  const failed = Object.keys(errors).some((key) => key.startsWith('preview'));
  // Opened, never closed, from here: the visitor closes it, not a keystroke that empties the inputs.
  useEffect(() => { if (failed && details.current) details.current.open = true; }, [failed]);
  return (
    <details class="preview-fields" ref={details} open={openAtFirst}>
      <summary>Link preview</summary>
      <p class="hint">What Slack, X, Facebook, WhatsApp and other apps show when the link is posted. People who click still go to the destination.</p>
      <Field id={`${id}-title`} label="Preview title" value={value.title} onInput={set('title')} error={errors['preview.title'] ?? errors.preview} />
      <Field id={`${id}-description`} label="Preview description" value={value.description} onInput={set('description')} error={errors['preview.description']} />
      <Field id={`${id}-image`} label="Preview image URL" type="url" value={value.image} onInput={set('image')} error={errors['preview.image']}
        hint="An https:// address of an image, 1200 × 630 pixels works everywhere." />
    </details>
  );
}

/** The link page's small card of its preview; the image is named, not loaded (the page loads nothing from elsewhere). */
export function PreviewCard({ preview }: { preview: LinkPreview }) {
  return (
    <div class="preview-card" data-testid="preview-card">
      {preview.title && <p class="preview-title">{preview.title}</p>}
      {preview.description && <p class="preview-description">{preview.description}</p>}
      {preview.image && <p class="preview-image muted">Image: <ExternalUrl url={preview.image} /></p>}
    </div>
  );
}
