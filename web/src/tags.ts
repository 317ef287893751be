import { useEffect, useState } from 'preact/hooks';
import { api, type ResponseOf, type WorkspaceTag } from './api.js';

/** The palette the API accepts by name (core/tag-rules.ts); any #rrggbb is accepted too. */
export const TAG_PALETTE = ['gray', 'red', 'orange', 'amber', 'green', 'teal', 'blue', 'indigo', 'purple', 'pink'] as const;

/** "launch, Q3 plan" → ['launch', 'Q3 plan']: what a tags field holds, as the API takes it. */
export function tagNamesOf(text: string): string[] {
  return text.split(',').map((name) => name.trim()).filter((name) => name !== '');
}

export const tagKey = (name: string) => name.normalize('NFC').toLowerCase();

/** Each workspace's tags (name, colour, count), for chips, the filter and suggestions; `reload` after a change. */
export function useWorkspaceTags(workspaceIds: readonly number[]): { tags: Map<number, WorkspaceTag[]>; reload: () => void } {
  const [tags, setTags] = useState(new Map<number, WorkspaceTag[]>());
  const [version, setVersion] = useState(0);
  const key = workspaceIds.join(',');
  useEffect(() => {
    const call = new AbortController();
    Promise.all(workspaceIds.map(async (id) => [id, (await api<ResponseOf<'listTags'>>('GET', `/api/v1/workspaces/${id}/tags`, undefined, call.signal)).items] as const))
      .then((entries) => { if (!call.signal.aborted) setTags(new Map(entries)); }, () => undefined);
    return () => call.abort();
  }, [key, version]);
  return { tags, reload: () => setVersion((v) => v + 1) };
}
