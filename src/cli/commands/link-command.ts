import type { Command } from 'commander';
import type { AccountServices } from '../../accounts/account-services.js';
import { workspaceOperator } from '../../accounts/workspace-operator.js';
import { disableLink, enableLink } from '../../admin/operator-links.js';
import { createOwnedLink } from '../../links/create-owned-link.js';
import type { LinkServices } from '../../links/link-services.js';
import { withDeps } from '../cli-context.js';
import { parseExpiry, parseId, parseRedirectStatus, targetWorkspace } from '../cli-options.js';
import type { LinkRedirectStatus } from '../../core/link.js';

interface LinkCreateOptions { workspace?: number; code?: string; expires?: number; tag?: string[]; redirectStatus?: LinkRedirectStatus;
  password?: string; confirm?: boolean;
}

/** Prints the link's short URL (its existing one when the workspace already had the URL). */
async function createLink(links: LinkServices, accounts: AccountServices, baseUrl: string, url: string, options: LinkCreateOptions): Promise<void> {
  const workspaceId = await targetWorkspace(links.transfer, options.workspace);
  const principal = await workspaceOperator(accounts, workspaceId);
  const result = await createOwnedLink(links.owned, principal, {
    url, workspaceId, customCode: options.code, expiresAt: options.expires, tags: options.tag, redirectStatus: options.redirectStatus,
    password: options.password, confirmBeforeRedirect: options.confirm,
  });
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
    .option('--tag <name>', 'a tag (repeat for more; tags the workspace lacks are made)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--redirect-status <status>', 'the status this link redirects with: 301, 308 (permanent), 302 or 307 (default: permanent unless it expires)', parseRedirectStatus)
    .option('--password <password>', 'visitors must give this password first (4 characters to 72 bytes; stored as a bcrypt hash)')
    .option('--confirm', 'visitors get a one-button page; only its submission counts and redirects')
    .action(async (url: string, options: LinkCreateOptions) => {
      await withDeps((deps) => createLink(deps.links, deps.accounts, deps.config.baseUrl, url, options));
    });
  link.command('disable')
    .description('disable a link, whoever owns it: it answers 410 with the reason, on every server at once')
    .argument('<code>', 'the short code')
    .requiredOption('--reason <text>', 'why, in a sentence: everyone who follows the link reads it')
    .action(async (code: string, options: { reason: string }) => {
      await withDeps(async ({ admin }) => {
        const { link } = await disableLink(admin, null, code, options.reason);
        console.log(`Disabled ${link.code} (to ${link.originalUrl}): ${link.disabledReason}`);
      });
    });
  link.command('enable')
    .description('enable a disabled link: it redirects again as its own status says')
    .argument('<code>', 'the short code')
    .action(async (code: string) => {
      await withDeps(async ({ admin }) => {
        const { link } = await enableLink(admin, code);
        console.log(`Enabled ${link.code} (to ${link.originalUrl})`);
      });
    });
}
