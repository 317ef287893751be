import type { TransferLink } from '../core/link-transfer-ports.js';
import type { LinkTransferDeps } from './link-services.js';

export interface ExportLinksRequest {
  /** Every workspace's links when absent. */
  readonly workspaceId?: number;
  /** Only these links (a selection whose access was checked). */
  readonly linkIds?: readonly number[];
  readonly withVisits: boolean;
}

const PAGE_SIZE = 1000;

/** Every link of the scope in id order, a page at a time, with its visits when asked. */
export async function* exportLinks(deps: Pick<LinkTransferDeps, 'transfer' | 'domain'>, request: ExportLinksRequest): AsyncGenerator<TransferLink> {
  const store = deps.transfer;
  if (request.linkIds?.length === 0) return;
  for (let afterId = 0; ;) {
    const page = await store.listLinksForExport({ domain: deps.domain, workspaceId: request.workspaceId, linkIds: request.linkIds, afterId, limit: PAGE_SIZE });
    if (page.length === 0) return;
    const visits = request.withVisits ? await store.listVisitsForExport(page.map((link) => link.id)) : undefined;
    const tags = await store.listTagsForExport(page.map((link) => link.id));
    for (const { id, ...link } of page) yield { ...link, tags: tags.get(id) ?? [], ...(visits && { visits: visits.get(id) ?? [] }) };
    afterId = page[page.length - 1]!.id;
  }
}
