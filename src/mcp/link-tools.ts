import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { LinkforgeApi } from './linkforge-api.js';
import { Code, Cursor, Destination, Expiry, FallbackUrl, linkChangesOf, MaxClicks, orNull, PageSize, RedirectStatus, Tags } from './link-fields.js';
import { describeLink, LinkOutput, type LinkJson } from './link-output.js';
import { answer, answerOrProblem } from './tool-result.js';

/** Where the workspace API keeps the links of `workspaceId`, or one of them. */
export const linksPath = (workspaceId: number, code?: string) =>
  `/api/v1/workspaces/${workspaceId}/links${code === undefined ? '' : `/${encodeURIComponent(code)}`}`;

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const LinkAnswer = { link: LinkOutput };

/** What every tool needs: the server to register on, the API, and the workspace the key acts in. */
export interface ToolKit {
  readonly server: McpServer;
  readonly api: LinkforgeApi;
  readonly workspace: () => Promise<number>;
}

/** create_link, find_links, get_link, update_link and delete_link: the workspace link API, one call each. */
export function registerLinkTools(kit: ToolKit): void {
  registerCreateLink(kit);
  registerFindLinks(kit);
  registerGetLink(kit);
  registerUpdateLink(kit);
  registerDeleteLink(kit);
}

function registerCreateLink({ server, api, workspace }: ToolKit): void {
  server.registerTool('create_link', {
    title: 'Create a short link',
    description: 'Shortens a URL in the API key\'s workspace. The workspace keeps one link per URL: for a URL it already has, its existing link is answered (created: false) unchanged.',
    inputSchema: {
      url: Destination, code: Code.optional().describe('A custom code (3–64 of A-Z a-z 0-9 _ -); without it one is made.'),
      expires_at: Expiry.optional(), tags: Tags.optional(), redirect_status: RedirectStatus.optional(),
      max_clicks: MaxClicks.optional(), fallback_url: FallbackUrl.optional(),
    },
    outputSchema: { ...LinkAnswer, created: z.boolean().describe('false: the workspace already had this URL, and this is its link.') },
    annotations: { idempotentHint: true, openWorldHint: false },
  }, ({ url, code, ...options }) => answerOrProblem(async () => {
    const { status, body: link } = await api.answer<LinkJson>('POST', linksPath(await workspace()), { body: { original_url: url, custom_code: code, ...options } });
    const created = status === 201;
    return answer(`${created ? 'Created' : 'The workspace already had this URL'}: ${describeLink(link)}`, { link, created });
  }));
}

function registerFindLinks({ server, api, workspace }: ToolKit): void {
  server.registerTool('find_links', {
    title: 'Find links',
    description: 'Lists the workspace\'s links, newest first, a page at a time; optionally only those whose code or URL contains a text, or carrying some tags.',
    inputSchema: {
      query: z.string().min(1).max(200).optional().describe('Only links whose short code or original URL contains this text (case-insensitive).'),
      tags: Tags.optional().describe('Only links carrying these tags.'),
      tag_mode: z.enum(['any', 'all']).optional().describe('any (the default): at least one of the tags; all: every one.'),
      limit: PageSize.optional(), cursor: Cursor.optional(),
    },
    outputSchema: {
      links: z.array(LinkOutput),
      next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last.'),
    },
    annotations: READ_ONLY,
  }, ({ query: text, tags, tag_mode, limit, cursor }) => answerOrProblem(async () => {
    const query = { q: text, tags: tags?.join(','), tag_mode, limit, cursor };
    const page = await api.call<{ items: LinkJson[]; next_cursor: string | null }>('GET', linksPath(await workspace()), { query });
    const lines = page.items.map(describeLink);
    const more = page.next_cursor === null ? 'No more pages.' : `More: call again with cursor "${page.next_cursor}".`;
    return answer(`${page.items.length} link${page.items.length === 1 ? '' : 's'}.\n\n${[...lines, more].join('\n\n')}`, { links: page.items, next_cursor: page.next_cursor });
  }));
}

function registerGetLink({ server, api, workspace }: ToolKit): void {
  server.registerTool('get_link', {
    title: 'Get a link',
    description: 'One link of the workspace by its code: destination, status, expiry, tags, click counts and options.',
    inputSchema: { code: Code },
    outputSchema: LinkAnswer,
    annotations: READ_ONLY,
  }, ({ code }) => answerOrProblem(async () => {
    const link = await api.call<LinkJson>('GET', linksPath(await workspace(), code));
    return answer(describeLink(link), { link });
  }));
}

function registerUpdateLink({ server, api, workspace }: ToolKit): void {
  server.registerTool('update_link', {
    title: 'Change a link',
    description: 'Changes what is given and leaves the rest. null removes an expiry, a redirect status, a click limit or a fallback URL; tags replace the whole set ([] removes them all).',
    inputSchema: {
      code: Code, url: Destination.optional(), expires_at: orNull(Expiry, 'removes the expiry').optional(),
      tags: Tags.optional().describe('The link\'s whole new set of tags; [] removes them all.'),
      redirect_status: orNull(RedirectStatus, 'goes back to the instance\'s rule').optional(),
      max_clicks: orNull(MaxClicks.describe('A new click limit, counted again from it.'), 'removes the limit').optional(),
      fallback_url: orNull(FallbackUrl, 'removes it').optional(),
    },
    outputSchema: LinkAnswer,
    annotations: { idempotentHint: true, openWorldHint: false },
  }, ({ code, ...changes }) => answerOrProblem(async () => {
    const link = await api.call<LinkJson>('PATCH', linksPath(await workspace(), code), { body: linkChangesOf(changes) });
    return answer(`Changed: ${describeLink(link)}`, { link });
  }));
}

function registerDeleteLink({ server, api, workspace }: ToolKit): void {
  server.registerTool('delete_link', {
    title: 'Delete a link',
    description: 'Deletes a link: its code answers 410 (or its fallback URL) from now on. It can be restored from the web UI or the API until the cleanup job purges it.',
    inputSchema: { code: Code },
    outputSchema: { short_code: z.string(), deleted: z.literal(true) },
    annotations: { destructiveHint: true, openWorldHint: false },
  }, ({ code }) => answerOrProblem(async () => {
    await api.call<undefined>('DELETE', linksPath(await workspace(), code));
    return answer(`Deleted the link ${code}.`, { short_code: code, deleted: true });
  }));
}
