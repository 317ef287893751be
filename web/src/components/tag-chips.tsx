import type { WorkspaceTag } from '../api.js';
import { TAG_PALETTE, tagKey } from '../tags.js';
import { Field } from './field.js';
import './tags.css';

/** A tag's look: a palette colour's own pair from the theme, or a neutral chip with a dot of the tag's own #rrggbb. */
export function TagChip({ name, colour }: { name: string; colour: string | undefined }) {
  const named = (TAG_PALETTE as readonly string[]).includes(colour ?? 'gray') ? colour ?? 'gray' : undefined;
  return (
    <span class={`tag-chip tag-${named ?? 'custom'}`} data-tag={name}>
      {named === undefined && <span class="tag-dot" style={{ background: colour }} aria-hidden="true" />}
      {name}
    </span>
  );
}

/** A link's tags, coloured by its workspace's tags. */
export function TagChips({ tags, known }: { tags: readonly string[]; known: readonly WorkspaceTag[] | undefined }) {
  if (tags.length === 0) return null;
  const colours = new Map((known ?? []).map((tag) => [tagKey(tag.name), tag.colour]));
  return (
    <span class="tag-chips" aria-label="Tags">
      {tags.map((name) => <TagChip key={name} name={name} colour={colours.get(tagKey(name))} />)}
    </span>
  );
}

/** Tags as text, separated by commas, with the workspace's tags offered as suggestions. */
export function TagsField({ id, value, onInput, error, known }: { id: string; value: string; onInput: (value: string) => void; error?: string; known?: readonly WorkspaceTag[] }) {
  return (
    <>
      <Field id={id} label="Tags (optional)" value={value} list={known?.length ? `${id}-known` : undefined} autoComplete="off"
        onInput={(e) => onInput(e.currentTarget.value)} error={error} hint="Separate tags with commas; new ones are made for you." />
      {known && known.length > 0 && <datalist id={`${id}-known`}>{known.map((tag) => <option key={tag.id} value={tag.name} />)}</datalist>}
    </>
  );
}
