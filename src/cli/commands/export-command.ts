import fs from 'node:fs';
import { once } from 'node:events';
import { Option, type Command } from 'commander';
import type { AccountServices } from '../../accounts/account-services.js';
import { workspaceOperator } from '../../accounts/workspace-operator.js';
import { exportLinks } from '../../links/export-links.js';
import type { LinkTransferDeps } from '../../links/link-services.js';
import { exportText, type ExportFormat } from '../../portability/write-export.js';
import { withDeps } from '../cli-context.js';
import { parseId } from '../cli-options.js';

interface ExportCommandOptions {
  workspace?: number;
  format: ExportFormat;
  withVisits?: boolean;
  output?: string;
}

async function writeAll(chunks: AsyncIterable<string>, out: NodeJS.WritableStream): Promise<void> {
  for await (const chunk of chunks) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
}

async function exportTo(transfer: LinkTransferDeps, accounts: AccountServices, options: ExportCommandOptions): Promise<void> {
  if (options.workspace !== undefined) await workspaceOperator(accounts, options.workspace);
  const links = exportLinks(transfer, { workspaceId: options.workspace, withVisits: options.withVisits ?? false });
  const text = exportText(links, options.format, options.withVisits ?? false);
  if (options.output === undefined) return writeAll(text, process.stdout);
  const file = fs.createWriteStream(options.output);
  await once(file, 'open');
  try {
    await writeAll(text, file);
  } finally {
    file.end();
    await once(file, 'close');
  }
}

export function registerExportCommand(program: Command): void {
  program.command('export')
    .description('export links in Linkforge\'s own format, which `linkforge import` reads back without loss')
    .option('--workspace <id>', 'only this workspace\'s links (default: every workspace\'s)', parseId)
    .addOption(new Option('--format <format>', 'csv, or json (JSON Lines: one link per line)').choices(['csv', 'json']).default('csv'))
    .option('--with-visits', 'include every recorded visit of every link')
    .option('--output <file>', 'write to this file instead of stdout')
    .action(async (options: ExportCommandOptions) => {
      await withDeps((deps) => exportTo(deps.links.transfer, deps.accounts, options));
    });
}
