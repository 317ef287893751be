import type { Command } from 'commander';
import type { AccountServices } from '../../accounts/account-services.js';
import { workspaceOperator } from '../../accounts/workspace-operator.js';
import { createOwnedLink } from '../../links/create-owned-link.js';
import type { LinkServices } from '../../links/link-services.js';
import { withDeps } from '../cli-context.js';
import { parseExpiry, parseId, targetWorkspace } from '../cli-options.js';

interface LinkCreateOptions { workspace?: number; code?: string; expires?: number }

/** Prints the link's short URL (its existing one when the workspace already had the URL). */
async function createLink(links: LinkServices, accounts: AccountServices, baseUrl: string, url: string, options: LinkCreateOptions): Promise<void> {
  const workspaceId = await targetWorkspace(links.transfer, options.workspace);
  const principal = await workspaceOperator(accounts, workspaceId);
  const result = await createOwnedLink(links.owned, principal, { url, workspaceId, customCode: options.code, expiresAt: options.expires });
  console.log(`${baseUrl}/${result.link.code}`);
  if (!result.created) console.error(`linkforge: the workspace already had this URL; its existing link is shown`);
}

export function registerLinkCommand(program: Command): void {
  const link = program.command('link').description('manage links');
  link.command('create')
    .description('create a permanent link in a workspace (the same rules as the API) and print its short URL')
    .argument('<url>', 'the destination')
    .option('--workspace <id>', 'the workspace (default: the only one, when there is exactly one)', parseId)
    .option('--code <code>', 'a custom short code (3 to 64 letters, digits, "-" or "_")')
    .option('--expires <when>', 'an expiry: an ISO date (2027-01-31T12:00:00Z) or a duration from now (7d, 12h)', (value) => parseExpiry(value))
    .action(async (url: string, options: LinkCreateOptions) => {
      await withDeps((deps) => createLink(deps.links, deps.accounts, deps.config.baseUrl, url, options));
    });
}
