import { parseDestination, type UrlPolicy } from './canonical-url.js';
import { LinkforgeError, ValidationError } from './errors.js';
import type { LinkPreview } from './link-options.js';

/**
 * Limits of a link preview's text, in characters. Cards show far less (X cuts titles near 70
 * characters, Slack and Facebook descriptions near 300), so these are room for every network's
 * cut, not a layout: long enough never to refuse a real title or summary, short enough that a
 * preview page stays a few kilobytes.
 */
export const MAX_PREVIEW_TITLE = 200;
export const MAX_PREVIEW_DESCRIPTION = 500;

// C0 (line breaks included), DEL and C1: a meta value is one line, and these only ever smuggle.
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/u;

/** A preview as a request gives it: each part optional. */
export interface LinkPreviewInput {
  readonly title?: string;
  readonly description?: string;
  readonly image?: string;
}

/**
 * A preview as stored: text trimmed (a part left empty is dropped), at least one part, the image
 * by the destination rules (core/canonical-url.ts: http or https, no internal address, no blocked
 * domain). Throws a 400 naming `field.title`, `field.description` or `field.image`.
 */
export function parseLinkPreview(input: LinkPreviewInput, policy: UrlPolicy, field = 'preview'): LinkPreview {
  const title = previewText(input.title, MAX_PREVIEW_TITLE, `${field}.title`);
  const description = previewText(input.description, MAX_PREVIEW_DESCRIPTION, `${field}.description`);
  const image = previewImage(input.image, policy, `${field}.image`);
  if (title === undefined && description === undefined && image === undefined) {
    throw new ValidationError('preview_invalid', `${field}: give at least one of a title, a description or an image.`, { field });
  }
  return { ...(title === undefined ? {} : { title }), ...(description === undefined ? {} : { description }), ...(image === undefined ? {} : { image }) };
}

function previewText(value: string | undefined, max: number, field: string): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (CONTROL.test(text)) throw new ValidationError('preview_invalid', `${field} must not contain line breaks or other control characters.`, { field });
  if ([...text].length > max) throw new ValidationError('preview_invalid', `${field} is too long: at most ${max} characters.`, { field, maxLength: max });
  return text === '' ? undefined : text;
}

function previewImage(value: string | undefined, policy: UrlPolicy, field: string): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    return parseDestination(value, policy).originalUrl;
  } catch (error) {
    if (!(error instanceof LinkforgeError)) throw error;
    throw new ValidationError(error.code as ConstructorParameters<typeof ValidationError>[0], `${field}: ${error.message}`, { ...error.extra, field });
  }
}
