import type { Command } from 'commander';
import { getUserByEmailOrThrow, listUsers } from '../../accounts/list-accounts.js';
import { disableUser, enableUser } from '../../admin/operator-users.js';
import { registerUser } from '../../accounts/register-user.js';
import { withDeps } from '../cli-context.js';
import { printListing } from '../print-listing.js';
import { readPassword } from '../read-password.js';

export function registerUserCommand(program: Command): void {
  const user = program.command('user').description('manage user accounts');
  user.command('create')
    .description('create a user and their personal workspace; the password is asked for on a terminal, or read from the first line of stdin')
    .argument('<email>', 'the new user\'s email address')
    .option('--admin', 'give the user the admin role')
    .action(async (email: string, options: { admin?: boolean }) => {
      const password = await readPassword();
      await withDeps(async ({ accounts }) => {
        const registered = await registerUser(accounts, { email, password }, { admin: options.admin });
        console.log(`Created ${registered.user.role} ${registered.user.email} (user ${registered.user.id}); personal workspace ${registered.personalWorkspaceId}`);
      });
    });  user.command('list')
    .description('list every user: id, role, email, creation time')
    .option('--json', 'print JSON instead of text')
    .action(async (options: { json?: boolean }) => {
      await withDeps(async ({ accounts }) => {
        printListing(await listUsers(accounts), options.json, (u) => `${u.id}\t${u.role}\t${u.email}\t${new Date(u.createdAt).toISOString()}`);
      });
    });
  user.command('disable')
    .description('disable a user: they cannot sign in, and their tokens and API keys stop working at once; their links keep redirecting')
    .argument('<email>', 'the user\'s email address')
    .action(async (email: string) => {
      await withDeps(async ({ accounts, admin }) => {
        const disabled = await disableUser(admin, null, (await getUserByEmailOrThrow(accounts, email)).id);
        console.log(`Disabled ${disabled.email} (user ${disabled.id})`);
      });
    });
  user.command('enable')
    .description('enable a disabled user again')
    .argument('<email>', 'the user\'s email address')
    .action(async (email: string) => {
      await withDeps(async ({ accounts, admin }) => {
        const enabled = await enableUser(admin, (await getUserByEmailOrThrow(accounts, email)).id);
        console.log(`Enabled ${enabled.email} (user ${enabled.id})`);
      });
    });
}
