import { DEFAULT_REDIRECT, REDIRECT_STATUS_NAMES, REDIRECT_STATUSES, type RedirectStatus } from '../redirect-status.js';

export type { RedirectStatus };

const parse = (value: string): RedirectStatus => (value === '' ? null : Number(value) as RedirectStatus);

/** A labelled select of the redirect statuses, with one line on what permanent and temporary mean for the click counts. */
export function RedirectStatusField({ id, value, onChange }: { id: string; value: RedirectStatus; onChange: (status: RedirectStatus) => void }) {
  return (
    <div class="field redirect-field">
      <label for={id}>Redirect</label>
      <select id={id} name={id} value={value === null ? '' : String(value)} onChange={(e) => onChange(parse(e.currentTarget.value))} aria-describedby={`${id}-hint`}>
        <option value="">{DEFAULT_REDIRECT}</option>
        {REDIRECT_STATUSES.map((status) => <option key={status} value={String(status)}>{REDIRECT_STATUS_NAMES[status]}</option>)}
      </select>
      <p class="hint" id={`${id}-hint`}>Permanent: browsers cache it, so clicks after the first may not be counted. Temporary: every click reaches the server.</p>
    </div>
  );
}
