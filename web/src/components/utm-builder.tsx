import { UTM_FIELDS, type Utm, type UtmField } from '../destination.js';
import { Field } from './field.js';

const LABELS: Record<UtmField, { label: string; example: string }> = {
  source: { label: 'Source', example: 'newsletter' },
  medium: { label: 'Medium', example: 'email' },
  campaign: { label: 'Campaign', example: 'spring-sale' },
  term: { label: 'Term', example: 'running shoes' },
  content: { label: 'Content', example: 'header-link' },
};

/**
 * The five UTM fields, folded away until wanted; open from the start when values are remembered,
 * so a value the next link will carry is never hidden.
 */
export function UtmBuilder({ idPrefix, utm, onChange }: { idPrefix: string; utm: Utm; onChange: (utm: Utm) => void }) {
  const filled = UTM_FIELDS.filter((field) => utm[field]).length;
  return (
    <details class="utm" open={filled > 0}>
      <summary>UTM parameters{filled > 0 ? ` (${filled} set)` : ' (optional)'}</summary>
      <p class="hint">Added to the destination as <code>utm_source</code> and so on; remembered in this browser for this workspace.</p>
      <div class="utm-fields">
        {UTM_FIELDS.map((field) => (
          <Field key={field} id={`${idPrefix}-utm-${field}`} label={`${LABELS[field].label} (utm_${field})`} placeholder={LABELS[field].example}
            value={utm[field] ?? ''} maxLength={200} onInput={(e) => onChange({ ...utm, [field]: e.currentTarget.value })} />
        ))}
      </div>
    </details>
  );
}
