import { ValidationError } from './errors.js';

/** ADR 0030, "Names": 1 to 32 characters once trimmed, runs of spaces made one. */
export const MAX_TAG_NAME_LENGTH = 32;
export const MAX_TAGS_PER_LINK = 10;

/** Named colours the UI draws in both themes; any `#rrggbb` is accepted too. */
export const TAG_PALETTE = ['gray', 'red', 'orange', 'amber', 'green', 'teal', 'blue', 'indigo', 'purple', 'pink'] as const;
export const DEFAULT_TAG_COLOUR = 'gray';

// Letters and digits of any script, spaces and a few joiners. No comma: `tags=a,b` lists names.
const TAG_NAME = /^[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N} _.\-/&+]*$/u;
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** A tag name as stored: NFC, trimmed, inner whitespace folded; throws naming `field` when it breaks a rule. */
export function parseTagName(value: string, field: string): string {
  const name = value.normalize('NFC').trim().replace(/\s+/gu, ' ');
  if ([...name].length > MAX_TAG_NAME_LENGTH || !TAG_NAME.test(name)) {
    throw new ValidationError('tag_name_invalid',
      `${field}: "${value.slice(0, 40)}" is not a tag name. Use 1–${MAX_TAG_NAME_LENGTH} letters, digits, spaces or - _ . / & +, starting with a letter or digit.`,
      { field });
  }
  return name;
}

/** What names compare as: one tag per key in a workspace, whatever the case of its spelling. */
export function tagNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** A link's tag list: each name parsed, duplicates (by key) dropped, at most MAX_TAGS_PER_LINK. */
export function parseTagNames(values: readonly string[], field: string): string[] {
  const names = new Map<string, string>();
  for (const value of values) {
    const name = parseTagName(value, field);
    if (!names.has(tagNameKey(name))) names.set(tagNameKey(name), name);
  }
  if (names.size > MAX_TAGS_PER_LINK) {
    throw new ValidationError('tags_too_many', `${field}: a link carries at most ${MAX_TAGS_PER_LINK} tags, not ${names.size}.`, { field });
  }
  return [...names.values()];
}

/** A palette name or `#rrggbb`, lower-cased; throws naming `field` otherwise. */
export function parseTagColour(value: string, field: string): string {
  const colour = value.trim().toLowerCase();
  if ((TAG_PALETTE as readonly string[]).includes(colour) || HEX_COLOUR.test(colour)) return colour;
  throw new ValidationError('tag_colour_invalid', `${field}: "${value.slice(0, 40)}" is not a colour. Use one of ${TAG_PALETTE.join(', ')} or #rrggbb.`, { field });
}
