/**
 * A destination as people type it, made into what the API validates: `example.com/page` gains
 * `https://`. Text that already names a scheme is left for the API to judge, so `ftp://…` and
 * `javascript:…` are refused with the API's own words rather than silently rewritten.
 */
export function withScheme(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || /^(mailto|tel|javascript|data|about|file):/i.test(trimmed)) return trimmed;
  return `https://${trimmed.replace(/^\/+/, '')}`;
}

export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmField = typeof UTM_FIELDS[number];
export type Utm = Partial<Record<UtmField, string>>;

/** The URL with each filled UTM field set as `utm_<field>` (replacing one already there); unchanged when none is filled or the URL does not parse. */
export function withUtm(url: string, utm: Utm): string {
  const filled = UTM_FIELDS.filter((field) => utm[field]?.trim());
  if (filled.length === 0) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  for (const field of filled) parsed.searchParams.set(`utm_${field}`, utm[field]!.trim());
  return parsed.href;
}

const utmKey = (workspace: string) => `linkforge.utm.${workspace}`;

/** The UTM values last used in a workspace (`anonymous` before signing in), kept in this browser. */
export function rememberedUtm(workspace: string): Utm {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(utmKey(workspace)) ?? '{}');
    const entries = typeof stored === 'object' && stored !== null ? Object.entries(stored) : [];
    return Object.fromEntries(entries.filter(([field, value]) => (UTM_FIELDS as readonly string[]).includes(field) && typeof value === 'string'));
  } catch {
    return {};
  }
}

export function rememberUtm(workspace: string, utm: Utm): void {
  const kept = Object.fromEntries(UTM_FIELDS.filter((field) => utm[field]).map((field) => [field, utm[field]]));
  if (Object.keys(kept).length === 0) localStorage.removeItem(utmKey(workspace));
  else localStorage.setItem(utmKey(workspace), JSON.stringify(kept));
}
