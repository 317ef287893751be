import type { LinkTransferDeps } from './link-services.js';

/** The id of the only workspace, when the database holds exactly one: an operator's default target. */
export function findSoleWorkspaceId(deps: Pick<LinkTransferDeps, 'transfer'>): Promise<number | undefined> {
  return deps.transfer.findSoleWorkspaceId();
}
