import { z } from 'zod';

/**
 * A link as the workspace API answers it (LinkV1 in /openapi.json). The fields a model needs are
 * named; the rest pass through as the API sent them, so a field the API adds never fails a call.
 */
export const LinkOutput = z.looseObject({
  short_code: z.string().describe('The code: what get_link, update_link, delete_link and get_link_stats take.'),
  short_url: z.string().describe('The short URL to share.'),
  original_url: z.string().describe('Where the link sends visitors.'),
  status: z.enum(['ACTIVE', 'EXPIRED', 'DELETED']),
  tags: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  redirect_count: z.number().describe('Every redirect counted, of any visitor class.'),
  human_count: z.number().describe('Redirects of people (not bots or link previews).'),
  redirect_status: z.number().nullable(),
  max_clicks: z.number().nullable(),
  clicks_left: z.number().nullable(),
  fallback_url: z.string().nullable(),
});
export type LinkJson = z.infer<typeof LinkOutput>;

/** One link in a line or two a person (or a model) reads at a glance. */
export function describeLink(link: LinkJson): string {
  const facts = [
    `status ${link.status}`,
    link.expires_at === null ? 'no expiry' : `expires ${link.expires_at}`,
    link.tags.length === 0 ? undefined : `tags: ${link.tags.join(', ')}`,
    `${link.redirect_count} clicks (${link.human_count} by people)`,
    link.max_clicks === null ? undefined : `${link.clicks_left} of ${link.max_clicks} clicks left`,
  ].filter(Boolean);
  return `${link.short_url} → ${link.original_url}\n${facts.join('; ')}`;
}
