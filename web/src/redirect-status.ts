/** The statuses a link may name for itself; null leaves it to the instance (permanent unless the link expires). */
export type RedirectStatus = 301 | 302 | 307 | 308 | null;

export const REDIRECT_STATUSES = [301, 302, 307, 308] as const;

export const REDIRECT_STATUS_NAMES: Record<typeof REDIRECT_STATUSES[number], string> = {
  301: '301 Moved Permanently',
  302: '302 Found',
  307: '307 Temporary Redirect',
  308: '308 Permanent Redirect',
};

export const DEFAULT_REDIRECT = 'Default (permanent unless it expires)';

/** How the link page names a link's status; a permanent one it cannot keep while it expires says what it answers instead. */
export function redirectStatusText(status: number | null, expires: boolean): string {
  if (status !== 301 && status !== 302 && status !== 307 && status !== 308) return DEFAULT_REDIRECT;
  if (expires && status === 301) return `${REDIRECT_STATUS_NAMES[301]} (answers 302 while the link has an expiry)`;
  if (expires && status === 308) return `${REDIRECT_STATUS_NAMES[308]} (answers 307 while the link has an expiry)`;
  return REDIRECT_STATUS_NAMES[status];
}
