import type { Command } from 'commander';
import { createOwnedLink } from '../../links/create-owned-link.js';
import { withDeps } from '../cli-context.js';
import { parseExpiry, parseId, targetWorkspace } from '../cli-options.js';
import { workspaceOperator } from '../workspace-operator.js';

export function registerLinkCommand(program: Command): void {
  const link = program.command('link').description('manage links');
  link.command('create')
    .description('create a permanent link in a workspace (the same rules as the API) and print its short URL')
    .argument('<url>', 'the destination')
    .option('--workspace <id>', 'the workspace (default: the only one, when there is exactly one)', parseId)
    .option('--code <code>', 'a custom short code (3 to 64 letters, digits, "-" or "_")')
    .option('--expires <when>', 'an expiry: an ISO date (2027-01-31T12:00:00Z) or a duration from now (7d, 12h)', (value) => parseExpiry(value))
    .action(async (url: string, options: { workspace?: number; code?: string; expires?: number }) => {
      await withDeps(async (deps) => {
        const workspaceId = await targetWorkspace(deps, options.workspace);
        const principal = await workspaceOperator(deps, workspaceId);
        const result = await createOwnedLink(deps.ownedLinks, principal, { url, workspaceId, customCode: options.code, expiresAt: options.expires });
        console.log(`${deps.config.baseUrl}/${result.link.code}`);
        if (!result.created) console.error(`linkforge: the workspace already had this URL; its existing link is shown`);
      });
    });
}
