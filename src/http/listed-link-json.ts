import { Type, type Static } from '@sinclair/typebox';
import type { ListedLink } from '../core/ports.js';
import type { LinkListExtras, LinkMatch } from '../links/list-links.js';
import { Id, TagFilter, tagFilterOf, TagMode } from './link-fields.js';
import type { LinkJson } from './link-json.js';

const StatusFilter = Type.Union([Type.Literal('ACTIVE'), Type.Literal('EXPIRED'), Type.Literal('DELETED')]);

/** The filters a list, a bulk action ("all matching") and an export share, in the app API's spelling. */
export const LinkMatchFields = {
  workspaceId: Type.Optional(Id),
  status: Type.Optional(StatusFilter),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the short code or of the original URL.' })),
  mine: Type.Optional(Type.Boolean({ description: 'Only the links you created.' })),
  tags: Type.Optional(TagFilter),
  tagMode: Type.Optional(TagMode),
};
export const LinkMatchJson = Type.Object(LinkMatchFields, { additionalProperties: false });
type LinkMatchJson = Static<typeof LinkMatchJson>;

export function linkMatchOf(json: LinkMatchJson): LinkMatch {
  return { workspaceId: json.workspaceId, status: json.status, search: json.q, mine: json.mine, tags: tagFilterOf(json.tags), tagMode: json.tagMode };
}

/** What a list adds to a link: the caller's permissions, the trend, the last click. */
export const ListedLinkExtras = Type.Object({
  permissions: Type.Object({
    edit: Type.Boolean({ description: 'Change the destination or expiry.' }),
    delete: Type.Boolean({ description: 'Delete, restore or move it.' }),
  }, { description: 'What you may do with this link: a workspace owner or admin any link, a member the links they created.' }),
  trend: Type.Array(Type.Integer({ minimum: 0 }), { description: 'People\'s clicks per UTC day over the last 14 days, oldest first, today last.' }),
  lastClickAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The start of the hour of the last click by a person; null before the first.' }),
});

export function listedLinkToJson(json: LinkJson, link: ListedLink, extras: LinkListExtras): LinkJson & Static<typeof ListedLinkExtras> {
  return {
    ...json,
    permissions: extras.permissions,
    trend: extras.trend,
    lastClickAt: link.lastClickAt === null ? null : new Date(link.lastClickAt).toISOString(),
  };
}
