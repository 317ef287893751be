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

/** Whether a link has any option that makes its redirects temporary (ADR 0031). */
export function hasLinkOptions(link: {
  hasPassword: boolean; confirmBeforeRedirect: boolean; maxClicks: number | null; fallbackUrl: string | null;
  routes: readonly unknown[]; variants: readonly unknown[]; preview: unknown;
}): boolean {
  return link.hasPassword || link.confirmBeforeRedirect || link.maxClicks !== null || link.fallbackUrl !== null
    || link.routes.length > 0 || link.variants.length > 0 || (link.preview !== null && link.preview !== undefined);
}

/**
 * How the link page names a link's status; a permanent one it cannot keep (while the link expires,
 * or while it has options that may answer the next visit otherwise) says what it answers instead.
 */
export function redirectStatusText(status: number | null, expires: boolean, hasOptions = false): string {
  if (status !== 301 && status !== 302 && status !== 307 && status !== 308) return hasOptions ? 'Temporary (302): the link\'s options may answer each visit otherwise' : DEFAULT_REDIRECT;
  if (hasOptions && status === 301) return `${REDIRECT_STATUS_NAMES[301]} (answers 302 while the link has options)`;
  if (hasOptions && status === 308) return `${REDIRECT_STATUS_NAMES[308]} (answers 307 while the link has options)`;
  if (expires && status === 301) return `${REDIRECT_STATUS_NAMES[301]} (answers 302 while the link has an expiry)`;
  if (expires && status === 308) return `${REDIRECT_STATUS_NAMES[308]} (answers 307 while the link has an expiry)`;
  return REDIRECT_STATUS_NAMES[status];
}
