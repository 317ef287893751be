/**
 * The workspace the signed-in user is working in, remembered in this browser: new links from `/`
 * go there, and the UTM values are remembered per workspace. The personal one until another is chosen.
 */
const KEY = 'linkforge.currentWorkspace';

export interface WorkspaceChoice { readonly id: number; readonly is_personal: boolean }

export function currentWorkspaceId(workspaces: readonly WorkspaceChoice[]): number | undefined {
  const stored = Number(localStorage.getItem(KEY));
  return workspaces.find((w) => w.id === stored)?.id ?? workspaces.find((w) => w.is_personal)?.id ?? workspaces[0]?.id;
}

export function chooseWorkspace(id: number): void {
  localStorage.setItem(KEY, String(id));
}
