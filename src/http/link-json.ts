import { Type, type Static } from '@sinclair/typebox';
import { effectiveStatus, type Link } from '../core/link.js';
import { ClickLimitJson, clickLimitJsonOf, ClickLimitV1Json, clickLimitV1JsonOf } from './click-limit-json.js';
import { RouteField, VariantField } from './link-fields.js';
import { ConfirmBeforeRedirect, HasPassword } from './link-password-fields.js';
import type { ShortUrls } from '../core/short-urls.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const Timestamp = Type.String({ format: 'date-time' });

// The analytics fields (ADR 0014), shared by both spellings.
const RedirectCount = Type.Integer({ minimum: 0, description: 'Every redirect counted, of any visitor class.' });
const AvgRedirectMs = Type.Number({ minimum: 0, description: 'Mean handler latency of those redirects, in milliseconds; 0 before the first.' });
const HumanCount = Type.Integer({ minimum: 0, description: 'Redirects of people only: crawlers and link-preview fetchers are not counted here.' });
const Tags = Type.Array(Type.String(), { description: 'Names of the link\'s tags, in name order; an anonymous link has none.' });
const Preview = Type.Union([Type.Object({ title: Type.Optional(Type.String()), description: Type.Optional(Type.String()), image: Type.Optional(Type.String()) }), Type.Null()], {
  description: 'What link-preview agents are shown instead of the redirect; null: none.',
});
const Routes = Type.Array(RouteField, { description: 'The link\'s routes, in order: the first that matches a visitor chooses the destination; [] when none.' });
const Variants = Type.Array(VariantField, { description: 'The link\'s A/B split; [] when none.' });
const DestinationStatus = Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last destination check, 0 when unreachable; null before the first check.' });

/** The app API's link representation. */
export const LinkJson = Type.Object({
  id: Type.Integer(),
  shortCode: Type.String(),
  shortUrl: Type.String(),
  domain: Type.String({ description: 'The hostname the link answers on: BASE_URL\'s, or a custom domain\'s.' }),
  originalUrl: Type.String(),
  normalizedUrl: Type.String(),
  linkType: Type.Union([Type.Literal('TEMPORARY'), Type.Literal('PERMANENT')]),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('EXPIRED'), Type.Literal('DELETED')]),
  workspaceId: Type.Union([Type.Integer(), Type.Null()]),
  tags: Tags,
  createdAt: Timestamp,
  expiresAt: Nullable(Timestamp),
  deletedAt: Nullable(Timestamp),
  redirectCount: RedirectCount,
  avgRedirectMs: AvgRedirectMs,
  humanCount: HumanCount,
  destinationStatus: DestinationStatus,
  lastCheckedAt: Nullable(Timestamp),
  disabledReason: Type.Union([Type.String(), Type.Null()], { description: 'Set while the service\'s operator has disabled the link: its redirect answers 410 with this reason.' }),
  redirectStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'The link\'s own redirect status (301, 302, 307 or 308); null: the instance\'s rule.' }),
  preview: Preview,
  ...ClickLimitJson,
  routes: Routes,
  variants: Variants,
  hasPassword: HasPassword,
  confirmBeforeRedirect: ConfirmBeforeRedirect,
}, { $id: 'Link' });
export type LinkJson = Static<typeof LinkJson>;

/** The stored routes and variants (read-only lists) as the answer's plain arrays. */
const routingJson = (link: Link) => ({
  routes: (link.options?.routes ?? []) as LinkJson['routes'],
  variants: (link.options?.variants ?? []) as LinkJson['variants'],
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** `status` is the effective one: a link past its expiry reads EXPIRED before the reaper marks it. */
export function linkToJson(link: Link, urls: ShortUrls, now: number, tags: readonly string[]): LinkJson {
  return {
    id: link.id,
    shortCode: link.code,
    shortUrl: urls.shortUrlOf(link.domain, link.code),
    domain: urls.hostnameOf(link.domain),
    originalUrl: link.originalUrl,
    normalizedUrl: link.normalizedUrl,
    linkType: link.linkType,
    status: effectiveStatus(link, now),
    workspaceId: link.workspaceId,
    tags: [...tags],
    createdAt: new Date(link.createdAt).toISOString(),
    expiresAt: iso(link.expiresAt),
    deletedAt: iso(link.deletedAt),
    redirectCount: link.redirectCount,
    avgRedirectMs: link.avgRedirectMs,
    humanCount: link.humanCount,
    destinationStatus: link.destinationStatus,
    lastCheckedAt: iso(link.lastCheckedAt),
    disabledReason: link.disabledReason,
    redirectStatus: link.redirectStatus,
    preview: link.options?.preview ?? null,
    ...clickLimitJsonOf(link),
    ...routingJson(link),
    hasPassword: link.passwordHash !== null,
    confirmBeforeRedirect: link.options?.confirmBeforeRedirect === true,
  };
}


/** The workspace API v1's link representation (snake_case), plus its effective status and analytics fields. */
export const LinkV1Json = Type.Object({
  short_code: Type.String(),
  short_url: Type.String(),
  domain: Type.String({ description: 'The hostname the link answers on: BASE_URL\'s, or a custom domain\'s.' }),
  original_url: Type.String(),
  normalized_url: Type.String(),
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('EXPIRED'), Type.Literal('DELETED')]),
  tags: Tags,
  created_at: Timestamp,
  expires_at: Nullable(Timestamp),
  redirect_count: RedirectCount,
  avg_redirect_ms: AvgRedirectMs,
  human_count: HumanCount,
  destination_status: DestinationStatus,
  last_checked_at: Nullable(Timestamp),
  redirect_status: Type.Union([Type.Integer(), Type.Null()], { description: 'The link\'s own redirect status (301, 302, 307 or 308); null: the instance\'s rule.' }),
  preview: Preview,
  ...ClickLimitV1Json,
  routes: Routes,
  variants: Variants,
  has_password: HasPassword,
  confirm_before_redirect: ConfirmBeforeRedirect,
}, { $id: 'LinkV1' });
export type LinkV1Json = Static<typeof LinkV1Json>;

export function linkToV1Json(link: Link, urls: ShortUrls, now: number, tags: readonly string[]): LinkV1Json {
  return {
    short_code: link.code,
    short_url: urls.shortUrlOf(link.domain, link.code),
    domain: urls.hostnameOf(link.domain),
    original_url: link.originalUrl,
    normalized_url: link.normalizedUrl,
    status: effectiveStatus(link, now),
    tags: [...tags],
    created_at: new Date(link.createdAt).toISOString(),
    expires_at: iso(link.expiresAt),
    redirect_count: link.redirectCount,
    avg_redirect_ms: link.avgRedirectMs,
    human_count: link.humanCount,
    destination_status: link.destinationStatus,
    last_checked_at: iso(link.lastCheckedAt),
    redirect_status: link.redirectStatus,
    preview: link.options?.preview ?? null,
    ...clickLimitV1JsonOf(link),
    ...routingJson(link),
    has_password: link.passwordHash !== null,
    confirm_before_redirect: link.options?.confirmBeforeRedirect === true,
  };
}

/** An optional, nullable ISO date-time from a request body, in epoch milliseconds (NaN if unreadable). */
export function timestampFromJson(text: string | null | undefined): number | null | undefined {
  return text === undefined || text === null ? text : Date.parse(text);
}
