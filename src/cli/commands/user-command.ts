import type { Command } from 'commander';
import { listUsers } from '../../accounts/list-accounts.js';
import { registerUser } from '../../accounts/register-user.js';
import { withDeps } from '../cli-context.js';
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
        const users = await listUsers(accounts);
        if (options.json) console.log(JSON.stringify(users.map((u) => ({ ...u, createdAt: new Date(u.createdAt).toISOString() })), null, 2));
        else if (users.length === 0) console.log(NO_USERS_YET);
        else for (const u of users) console.log(`${u.id}\t${u.role}\t${u.email}\t${new Date(u.createdAt).toISOString()}`);
      });
    });
}

/** What an empty database tells the operator to do first. */
export const NO_USERS_YET = 'The database holds no user yet: create one with `linkforge user create EMAIL` (it gets a personal workspace).';
