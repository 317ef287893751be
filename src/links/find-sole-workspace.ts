import type { LinkTransferDeps } from './link-services.js';

/** The id of the only workspace, when the database holds exactly one (an operator's default target); else whether there are none or several. */
export function findSoleWorkspaceId(deps: Pick<LinkTransferDeps, 'transfer'>): Promise<number | 'none' | 'several'> {
  return deps.transfer.findSoleWorkspaceId();
}
