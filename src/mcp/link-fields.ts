import { z } from 'zod';

/** The tools' input fields, named as the workspace API names them (docs/api.md). */

export const Code = z.string().min(1).max(64).describe('The link\'s short code (the part after the instance\'s address in the short URL).');
export const Destination = z.string().describe('The absolute http(s) URL the link sends visitors to.');
export const Expiry = z.string().describe('ISO 8601 date-time in the future, e.g. 2027-01-31T12:00:00Z: after it the link answers 410 (or its fallback URL).');
export const Tags = z.array(z.string()).max(100).describe('Tag names (letters, digits, spaces or - _ . / & +; case-insensitive). Tags the workspace lacks are made.');
export const RedirectStatus = z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)])
  .describe('The HTTP status of the redirect; without it the instance\'s rule (permanent, or temporary while the link expires).');
export const MaxClicks = z.number().int().min(1).max(1_000_000_000).describe('How many people may follow the link; then it answers 410 (or its fallback URL).');
export const FallbackUrl = z.string().describe('Where visitors go once the link expired, was deleted or used up its clicks.');
export const Cursor = z.string().max(64).describe('next_cursor of the previous page.');
export const PageSize = z.number().int().min(1).max(100).describe('Links per page, 1 to 100 (default 20).');

/** `schema` or null, described: a nullable field's own description is lost in its JSON Schema's anyOf. */
export function orNull<T extends z.ZodType>(schema: T, nullMeans: string) {
  return schema.nullable().describe(`${schema.description ?? ''} null ${nullMeans}.`.trim());
}

/** The PATCH body of the workspace API from a tool's fields: only what was given, `null` clearing. */
export function linkChangesOf(input: {
  url?: string; expires_at?: string | null; tags?: string[]; redirect_status?: number | null; max_clicks?: number | null; fallback_url?: string | null;
}): Record<string, unknown> {
  const { url, ...rest } = input;
  return Object.fromEntries(Object.entries({ original_url: url, ...rest }).filter(([, value]) => value !== undefined));
}
