/** The statuses a link may name for itself; null leaves it to the instance (permanent unless the link expires). */
export type RedirectStatus = 301 | 302 | 307 | 308 | null;

const NAMES: Record<301 | 302 | 307 | 308, string> = {
  301: '301 Moved Permanently',
  302: '302 Found',
  307: '307 Temporary Redirect',
  308: '308 Permanent Redirect',
};

export const DEFAULT_REDIRECT = 'Default (permanent unless it expires)';

/** How the link page names a link's status; a permanent one it cannot keep while it expires says what it answers instead. */
export function redirectStatusText(status: number | null, expires: boolean): string {
  if (status !== 301 && status !== 302 && status !== 307 && status !== 308) return DEFAULT_REDIRECT;
  if (expires && status === 301) return `${NAMES[301]} (answers 302 while the link has an expiry)`;
  if (expires && status === 308) return `${NAMES[308]} (answers 307 while the link has an expiry)`;
  return NAMES[status];
}

const parse = (value: string): RedirectStatus => (value === '' ? null : Number(value) as RedirectStatus);

/** A labelled select of the redirect statuses, with one line on what permanent and temporary mean for the click counts. */
export function RedirectStatusField({ id, value, onChange }: { id: string; value: RedirectStatus; onChange: (status: RedirectStatus) => void }) {
  return (
    <div class="field redirect-field">
      <label for={id}>Redirect</label>
      <select id={id} name={id} value={value === null ? '' : String(value)} onChange={(e) => onChange(parse(e.currentTarget.value))} aria-describedby={`${id}-hint`}>
        <option value="">{DEFAULT_REDIRECT}</option>
        {([301, 302, 307, 308] as const).map((status) => <option key={status} value={String(status)}>{NAMES[status]}</option>)}
      </select>
      <p class="hint" id={`${id}-hint`}>Permanent: browsers cache it, so clicks after the first may not be counted. Temporary: every click reaches the server.</p>
    </div>
  );
}
