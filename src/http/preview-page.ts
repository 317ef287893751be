import type { LinkPreview } from '../core/link-options.js';
import type { FailureResponse } from './redirect-pages.js';

export interface PreviewPageInput {
  readonly preview: LinkPreview;
  /** The link's short URL: the card's `og:url`, so a share counts toward the short link. */
  readonly shortUrl: string;
  /** Where a person who lands on the page may continue; absent for a password link, whose destination is its secret. */
  readonly destination?: string;
  /** The page stylesheet's address (same origin), when the UI is built. */
  readonly stylesheet?: string;
}

/**
 * The page loads nothing but its own stylesheet: the image is only a meta value, fetched by the
 * agent if at all. No framing, no form, no base; an agent never needs more, and a preview's text
 * is a stranger's input. `noindex` twice: a search engine that reads only headers or only meta.
 */
const PREVIEW_POLICY = "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const NOINDEX = { 'x-robots-tag': 'noindex' };
const PREVIEW_HEADERS = {
  html: { 'content-security-policy': PREVIEW_POLICY, ...NOINDEX },
  json: { 'content-type': 'application/json; charset=utf-8', ...NOINDEX },
} as const;

/** Text or attribute value: every character that could end an attribute, open a tag or start an entity. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const meta = (attribute: 'property' | 'name', key: string, value: string | undefined) =>
  (value === undefined ? '' : `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`);

/** Open Graph (og:*) and X card (twitter:*) tags; the larger card only when there is an image to fill it. */
function cardTags({ title, description, image }: LinkPreview, shortUrl: string): string {
  return meta('property', 'og:type', 'website') + meta('property', 'og:url', shortUrl)
    + meta('property', 'og:title', title) + meta('property', 'og:description', description) + meta('property', 'og:image', image)
    + meta('name', 'twitter:card', image === undefined ? 'summary' : 'summary_large_image')
    + meta('name', 'twitter:title', title) + meta('name', 'twitter:description', description) + meta('name', 'twitter:image', image);
}

function body({ preview, destination }: PreviewPageInput): string {
  const heading = preview.title === undefined ? '' : `<h1>${escapeHtml(preview.title)}</h1>`;
  const description = preview.description === undefined ? '' : `<p>${escapeHtml(preview.description)}</p>`;
  const next = destination === undefined
    ? '<p class="next muted">Open this link in a web browser to continue.</p>'
    : `<p class="next"><a href="${escapeHtml(destination)}" rel="noreferrer nofollow">Continue to ${escapeHtml(hostOf(destination))}</a></p>`;
  return `<body class="recipient"><main><div class="card">${heading}${description}${next}</div></main></body>`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * What link-preview agents are answered for a link with a preview (ADR 0031): 200 with the card's
 * tags, in HTML unless the request names JSON. Built per answer, since it is the link's own.
 */
export function previewPage(input: PreviewPageInput): FailureResponse {
  const { preview, shortUrl, stylesheet } = input;
  const title = preview.title ?? preview.description ?? shortUrl;
  const style = stylesheet === undefined ? '' : `<link rel="stylesheet" href="${escapeHtml(stylesheet)}">`;
  const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
    + `<meta name="color-scheme" content="light dark"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>`
    + `${cardTags(preview, shortUrl)}${style}</head>${body(input)}</html>`;
  const json = { url: shortUrl, ...preview };
  return { status: 200, html: Buffer.from(html), json: Buffer.from(JSON.stringify(json)), htmlByDefault: true, headers: PREVIEW_HEADERS };
}
