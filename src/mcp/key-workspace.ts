import { ApiProblem } from './api-problem.js';
import type { LinkforgeApi } from './linkforge-api.js';

interface WorkspaceList {
  readonly workspaces: ReadonlyArray<{ readonly id: number; readonly name: string }>;
}

/**
 * The workspace the tools act in: LINKFORGE_WORKSPACE_ID, or the one workspace an API key lists
 * (a key acts only inside its own). Asked once it answers; a refusal is asked again next call,
 * so a key fixed on the server side works without a restart.
 */
export function keyWorkspace(api: LinkforgeApi, configured: number | undefined): () => Promise<number> {
  let known: number | undefined = configured;
  return async () => {
    if (known !== undefined) return known;
    const { workspaces } = await api.call<WorkspaceList>('GET', '/api/v1/workspaces');
    if (workspaces.length !== 1) {
      throw new ApiProblem('No single workspace to act in', `the key reaches ${workspaces.length} workspaces; use a workspace API key (lfk_…), or set LINKFORGE_WORKSPACE_ID`, undefined, undefined);
    }
    known = workspaces[0]!.id;
    return known;
  };
}
