import type { LinkOptions, LinkPreview } from '../core/link-options.js';
import { quoted } from './parse-fields.js';

const PARTS: readonly string[] = ['title', 'description', 'image'];

/** The `preview` column: the link's preview as JSON text, empty without one. */
export function previewCellOf(options: LinkOptions | null | undefined): string {
  return options?.preview === undefined ? '' : JSON.stringify(options.preview);
}

/**
 * A row's preview (ADR 0031) as options: a {title, description, image} object of text (JSON text
 * in CSV); null when empty or absent (files from before previews). Its rules are the import's to
 * check (links/import-links.ts), as for every link an API call makes.
 */
export function previewOptionsOf(value: unknown): LinkOptions | null {
  if (value === undefined || value === null || value === '') return null;
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('The preview is not a {title, description, image} object.');
  const preview: Record<string, string> = {};
  for (const [key, part] of Object.entries(parsed)) {
    if (!PARTS.includes(key) || typeof part !== 'string') throw new Error(`The preview's ${quoted(key)} is not a text title, description or image.`);
    preview[key] = part;
  }
  return { preview: preview as LinkPreview };
}
