import { Type, type Static } from '@sinclair/typebox';
import type { Link } from '../core/link.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const Timestamp = Type.String({ format: 'date-time' });

/** The app API's link representation (SPEC section 5). */
export const LinkJson = Type.Object({
  id: Type.Integer(),
  shortCode: Type.String(),
  shortUrl: Type.String(),
  originalUrl: Type.String(),
  normalizedUrl: Type.String(),
  linkType: Type.Union([Type.Literal('TEMPORARY'), Type.Literal('PERMANENT')]),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('EXPIRED'), Type.Literal('DELETED')]),
  workspaceId: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Timestamp,
  expiresAt: Nullable(Timestamp),
  deletedAt: Nullable(Timestamp),
  redirectCount: Type.Integer(),
  avgRedirectMs: Type.Number(),
  destinationStatus: Type.Union([Type.Integer(), Type.Null()]),
  lastCheckedAt: Nullable(Timestamp),
}, { $id: 'Link' });
export type LinkJson = Static<typeof LinkJson>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** `status` is the effective one: a link past its expiry reads EXPIRED before the reaper marks it. */
export function linkToJson(link: Link, baseUrl: string, now: number): LinkJson {
  const expired = link.status === 'ACTIVE' && link.expiresAt !== null && link.expiresAt <= now;
  return {
    id: link.id,
    shortCode: link.code,
    shortUrl: `${baseUrl}/${link.code}`,
    originalUrl: link.originalUrl,
    normalizedUrl: link.normalizedUrl,
    linkType: link.linkType,
    status: expired ? 'EXPIRED' : link.status,
    workspaceId: link.workspaceId,
    createdAt: new Date(link.createdAt).toISOString(),
    expiresAt: iso(link.expiresAt),
    deletedAt: iso(link.deletedAt),
    redirectCount: link.redirectCount,
    avgRedirectMs: link.avgRedirectMs,
    destinationStatus: link.destinationStatus,
    lastCheckedAt: iso(link.lastCheckedAt),
  };
}
