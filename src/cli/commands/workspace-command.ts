import type { Command } from 'commander';
import { listWorkspaces } from '../../accounts/list-accounts.js';
import { withDeps } from '../cli-context.js';
import { NO_USERS_YET } from './user-command.js';

export function registerWorkspaceCommand(program: Command): void {
  const workspace = program.command('workspace').description('see workspaces (the --workspace ID of link, import and export)');
  workspace.command('list')
    .description('list every workspace: id, personal or shared, name, owners, member count')
    .option('--json', 'print JSON instead of text')
    .action(async (options: { json?: boolean }) => {
      await withDeps(async ({ accounts }) => {
        const workspaces = await listWorkspaces(accounts);
        if (options.json) console.log(JSON.stringify(workspaces.map((w) => ({ ...w, createdAt: new Date(w.createdAt).toISOString() })), null, 2));
        else if (workspaces.length === 0) console.log(NO_USERS_YET);
        else {
          for (const w of workspaces) {
            const members = `${w.memberCount} member${w.memberCount === 1 ? '' : 's'}`;
            console.log(`${w.id}\t${w.isPersonal ? 'personal' : 'shared'}\t${w.name}\towners: ${w.ownerEmails.join(', ') || 'none'}\t${members}`);
          }
        }
      });
    });
}
