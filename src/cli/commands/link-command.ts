import type { Command } from 'commander';
import type { AccountServices } from '../../accounts/account-services.js';
import { workspaceOperator } from '../../accounts/workspace-operator.js';
import { disableLink, enableLink } from '../../admin/operator-links.js';
import { createOwnedLink } from '../../links/create-owned-link.js';
import type { LinkServices } from '../../links/link-services.js';
import { withDeps } from '../cli-context.js';
import { parseExpiry, parseId, parseRedirectStatus, targetWorkspace } from '../cli-options.js';
import type { LinkRedirectStatus } from '../../core/link.js';
import type { LinkPreviewInput } from '../../core/link-preview.js';
import { parseRouteFlag, parseVariantFlag, type RouteFlag, type VariantFlag } from '../routing-flags.js';

interface LinkCreateOptions {
  workspace?: number; code?: string; expires?: number; tag?: string[]; redirectStatus?: LinkRedirectStatus;
  previewTitle?: string; previewDescription?: string; previewImage?: string; maxClicks?: number; fallbackUrl?: string;
  route?: RouteFlag[]; variant?: VariantFlag[]; password?: string; confirm?: boolean;
}

/** The `--preview-*` options as one preview, or none when no part is given. */
function previewOf(options: LinkCreateOptions): LinkPreviewInput | undefined {
  const { previewTitle: title, previewDescription: description, previewImage: image } = options;
  if (title === undefined && description === undefined && image === undefined) return undefined;
  return { ...(title === undefined ? {} : { title }), ...(description === undefined ? {} : { description }), ...(image === undefined ? {} : { image }) };
}

/** Prints the link's short URL (its existing one when the workspace already had the URL). */
async function createLink(links: LinkServices, accounts: AccountServices, baseUrl: string, url: string, options: LinkCreateOptions): Promise<void> {
  const workspaceId = await targetWorkspace(links.transfer, options.workspace);
  const principal = await workspaceOperator(accounts, workspaceId);
  const result = await createOwnedLink(links.owned, principal, {
    url, workspaceId, customCode: options.code, expiresAt: options.expires, tags: options.tag, redirectStatus: options.redirectStatus,
    preview: previewOf(options), maxClicks: options.maxClicks, fallbackUrl: options.fallbackUrl,
    routes: options.route, variants: options.variant, password: options.password, confirmBeforeRedirect: options.confirm,
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
    .option('--preview-title <text>', 'the title link-preview bots (Slack, X, Facebook …) show instead of the destination\'s; at most 200 characters')
    .option('--preview-description <text>', 'the description those bots show; at most 500 characters')
    .option('--preview-image <url>', 'the image those bots show: an absolute http(s) URL')
    .option('--max-clicks <n>', 'stop after this many people have followed it (crawlers and preview bots do not count)', parseId)
    .option('--fallback-url <url>', 'where the link sends visitors once it is used up, expired or deleted (instead of the 410 page)')
    .option('--route <rule>', 'a route, first match wins (repeat for more): country=DE,AT;device=ios;language=de;url=https://… (device: ios, android, mobile, desktop)', parseRouteFlag)
    .option('--variant <url=weight>', 'an A/B variant, at least two (repeat): https://…=WEIGHT, a whole number from 1 to 1000', parseVariantFlag)
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
