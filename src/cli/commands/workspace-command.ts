import type { Command } from 'commander';
import { listWorkspaces } from '../../accounts/list-accounts.js';
import { withDeps } from '../cli-context.js';
import { printListing } from '../print-listing.js';

export function registerWorkspaceCommand(program: Command): void {
  const workspace = program.command('workspace').description('see workspaces (the --workspace ID of link, import and export)');
  workspace.command('list')
    .description('list every workspace: id, personal or shared, name, owners, member count')
    .option('--json', 'print JSON instead of text')
    .action(async (options: { json?: boolean }) => {
      await withDeps(async ({ accounts }) => {
        printListing(await listWorkspaces(accounts), options.json, (w) => {
          const members = `${w.memberCount} member${w.memberCount === 1 ? '' : 's'}`;
          return `${w.id}\t${w.isPersonal ? 'personal' : 'shared'}\t${w.name}\towners: ${w.ownerEmails.join(', ') || 'none'}\t${members}`;
        });
      });
    });
}
