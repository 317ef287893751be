import { Command } from 'commander';
import { describeFailure } from './cli-errors.js';
import { registerExportCommand } from './commands/export-command.js';
import { registerImportCommand } from './commands/import-command.js';
import { registerLinkCommand } from './commands/link-command.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerTagCommand } from './commands/tag-command.js';
import { registerOperationsCommands } from './commands/operations-commands.js';
import { registerUserCommand } from './commands/user-command.js';
import { registerWorkspaceCommand } from './commands/workspace-command.js';

/**
 * `linkforge`: the operator's commands (docs/cli-and-migration.md). Each opens the composition root
 * (src/deps.ts) with the server's configuration and calls the use cases; only `serve` starts HTTP.
 */
export function buildProgram(): Command {
  const program = new Command('linkforge')
    .description('Linkforge, a self-hosted URL shortener. Configured by environment variables (and .env), like the server.')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', '\nExit codes: 0 done, 1 failed, 2 wrong usage, 3 import finished with rejected rows.')
    // Set before the subcommands exist, which inherit it: usage errors come back as CommanderError (exit 2).
    .exitOverride();
  registerOperationsCommands(program);
  registerUserCommand(program);
  registerWorkspaceCommand(program);
  registerLinkCommand(program);
  registerTagCommand(program);
  registerImportCommand(program);
  registerExportCommand(program);
  registerMcpCommand(program);
  return program;
}

async function main(): Promise<void> {
  // `linkforge export | head` closes the pipe early: that is the reader's choice, not a failure.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (error) {
    const { message, exitCode } = describeFailure(error);
    if (message) console.error(message);
    process.exitCode = exitCode;
  }
}

await main();
