import { Type } from '@sinclair/typebox';
import { LINK_REDIRECT_STATUSES, type LinkRedirectStatus } from '../core/link.js';
import { MAX_PREVIEW_DESCRIPTION, MAX_PREVIEW_TITLE } from '../core/link-preview.js';
import { MAX_CLICKS } from '../core/click-limit.js';
import { MAX_TAG_NAME_LENGTH, MAX_TAGS_PER_LINK } from '../core/tag-rules.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../links/list-links.js';

/** Field schemas the app API (camelCase) and v1 (snake_case) share: same rules, different names. */
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
export const DestinationUrl = Type.String({ description: 'The absolute http(s) URL to shorten.' });
export const CustomCode = Type.String({ maxLength: 200, description: '3–64 of A-Z a-z 0-9 _ -, not a reserved word.' });
export const Expiry = Type.String({ format: 'date-time', description: 'ISO 8601 date-time in the future.' });
export const ExpiryOrNull = Type.Union([Expiry, Type.Null()], { description: 'null removes the expiry.' });
export const Cursor = Type.String({ maxLength: 64, description: 'The next-page cursor of the previous answer.' });
export const PageSize = Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE });
export const NextCursor = Type.Union([Type.String(), Type.Null()]);
export const TagNames = Type.Array(Type.String({ maxLength: 200 }), {
  maxItems: 100,
  description: `Tag names (1–${MAX_TAG_NAME_LENGTH} letters, digits, spaces or - _ . / & +; case-insensitive), at most ${MAX_TAGS_PER_LINK} once repeats are dropped. Tags the workspace lacks are made. On PATCH the whole set: [] removes them all.`,
});
export const TagFilter = Type.String({ maxLength: 400, description: 'Only links carrying these tags: names separated by commas.' });
export const TagMode = Type.Union([Type.Literal('any'), Type.Literal('all')], { description: 'any (the default): links carrying at least one of the tags; all: links carrying every one.' });

/** `a, b` → ['a', 'b']; empty parts dropped. */
export function tagFilterOf(text: string | undefined): string[] | undefined {
  const names = text?.split(',').map((name) => name.trim()).filter((name) => name !== '');
  return names?.length ? names : undefined;
}

const REDIRECT_STATUS_RULE = 'The status this link redirects with: 301 or 308 (permanent, cached by browsers) or 302 or 307 (asked again at every click; 307 and 308 keep the request method). While the link has an expiry, 301 answers as 302 and 308 as 307, so that no browser keeps following it past its expiry.';
export const RedirectStatusField = Type.Unsafe<LinkRedirectStatus>({ type: 'integer', enum: [...LINK_REDIRECT_STATUSES], description: REDIRECT_STATUS_RULE });
export const RedirectStatusOrNull = Type.Unsafe<LinkRedirectStatus | null>({
  type: ['integer', 'null'], enum: [...LINK_REDIRECT_STATUSES, null], description: `${REDIRECT_STATUS_RULE} null goes back to the instance's rule (permanent unless the link expires).`,
});

// Generous caps only: the rules (core/link-preview.ts) answer a 400 naming the part that breaks them.
const previewText = (max: number) => Type.String({ maxLength: 4096, description: `At most ${max} characters, without line breaks or control characters.` });
export const PreviewField = Type.Object({
  title: Type.Optional(previewText(MAX_PREVIEW_TITLE)),
  description: Type.Optional(previewText(MAX_PREVIEW_DESCRIPTION)),
  image: Type.Optional(Type.String({ maxLength: 16_384, description: 'An absolute http(s) URL, by the same rules as a destination.' })),
}, {
  additionalProperties: false,
  description: 'What link-preview agents (Slack, X, Facebook, Discord, WhatsApp, LinkedIn, Telegram …) are shown instead of the redirect: an Open Graph card. At least one part. People are redirected as usual.',
});
export const PreviewOrNull = Type.Union([PreviewField, Type.Null()], { description: 'null removes the preview.' });
const MAX_CLICKS_RULE = `Stop after this many people have followed the link (1 to ${MAX_CLICKS}): then it answers 410 \`link_limit_reached\` (\`reason: "limit_reached"\`), or redirects to the fallback URL. Crawlers, link-preview agents, known mail scanners and HEAD requests never use a click. Setting it on an edit gives back all of its clicks.`;
export const MaxClicks = Type.Integer({ minimum: 1, maximum: MAX_CLICKS, description: MAX_CLICKS_RULE });
export const MaxClicksOrNull = Type.Union([MaxClicks, Type.Null()], { description: `${MAX_CLICKS_RULE} null removes the limit.` });
const FALLBACK_URL_RULE = 'Where an expired, deleted or used-up link sends its visitors (302) instead of the 410 page; it passes the same rules as the destination.';
export const FallbackUrl = Type.String({ description: FALLBACK_URL_RULE });
export const FallbackUrlOrNull = Type.Union([FallbackUrl, Type.Null()], { description: `${FALLBACK_URL_RULE} null removes it.` });
const ConditionValues = (description: string) => Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { description }));
export const RouteField = Type.Object({
  country: ConditionValues('ISO 3166-1 alpha-2 country codes (DE, AT); matched against the country of the visitor\'s address.'),
  device: ConditionValues('ios, android, mobile (any phone or tablet) or desktop, from the User-Agent.'),
  language: ConditionValues('Primary language subtags (de, pt), matched against any language of the visitor\'s Accept-Language.'),
  url: Type.String({ description: 'Where a visitor this route matches is sent; the same rules as the link\'s own URL.' }),
}, { additionalProperties: false });
export const VariantField = Type.Object({
  url: Type.String({ description: 'Where this share of visitors is sent; the same rules as the link\'s own URL.' }),
  weight: Type.Integer({ description: 'A whole number from 1 to 1000; each variant gets its weight\'s share of visitors.' }),
}, { additionalProperties: false });
export const RoutesOrNull = Type.Union([Type.Array(RouteField), Type.Null()], {
  description: 'At most 10 routes; the first whose every condition (country, device, language: at least one) matches the visitor sends them to its URL. Otherwise the variants or the link\'s URL. null or [] removes them.',
});
export const VariantsOrNull = Type.Union([Type.Array(VariantField), Type.Null()], {
  description: 'An A/B split of 2 to 10 variants: each visitor is sent to one by weight, the same one all day for one address and browser (a new draw per request under ANALYTICS_PRIVACY=strict or a privacy signal). null or [] removes them.',
});

export const LinkDomain = Type.String({ maxLength: 300, description: 'A verified custom domain of the link\'s workspace (its hostname); BASE_URL\'s host when absent (ADR 0036).' });
/** `?domain=`: the short domain a code is on, for the v1 routes that name a link by its code. */
export const DomainQuery = Type.Object({ domain: Type.Optional(LinkDomain) }, { additionalProperties: false });
