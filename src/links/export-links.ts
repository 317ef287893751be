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
export async function* exportLinks(deps: Pick<LinkTransferDeps, 'transfer' | 'domain' | 'hosts'>, request: ExportLinksRequest): AsyncGenerator<TransferLink> {
  const store = deps.transfer;
  if (request.linkIds?.length === 0) return;
  // The default domain and every verified custom domain: a deleted domain's links have no name to go under.
  const domains = [deps.domain, ...deps.hosts.keys()];
  for (let afterId = 0; ;) {
    const page = await store.listLinksForExport({ domains, workspaceId: request.workspaceId, linkIds: request.linkIds, afterId, limit: PAGE_SIZE });
    if (page.length === 0) return;
    const visits = request.withVisits ? await store.listVisitsForExport(page.map((link) => link.id)) : undefined;
    const tags = await store.listTagsForExport(page.map((link) => link.id));
    for (const { id, domainKey, ...link } of page) {
      const domain = domainKey === deps.domain ? undefined : deps.hosts.hostnameOf(domainKey);
      yield { ...link, ...(domain !== undefined && { domain }), tags: tags.get(id) ?? [], ...(visits && { visits: visits.get(id) ?? [] }) };
    }
    afterId = page[page.length - 1]!.id;
  }
}
