import fs from 'node:fs';
import { Option, type Command } from 'commander';
import type { AccountServices } from '../../accounts/account-services.js';
import { workspaceOperator } from '../../accounts/workspace-operator.js';
import type { Config } from '../../config.js';
import { importLinks, type ImportReport } from '../../links/import-links.js';
import type { LinkTransferDeps } from '../../links/link-services.js';
import { IMPORT_FORMATS, type ImportFormat } from '../../portability/import-candidate.js';
import { readImport } from '../../portability/read-import.js';
import { withDeps } from '../cli-context.js';
import { EXIT } from '../cli-errors.js';
import { parseId, targetWorkspace } from '../cli-options.js';
import { importProgress } from '../import-progress.js';

interface ImportCommandOptions {
  workspace?: number;
  format?: ImportFormat;
  dryRun?: boolean;
  json?: boolean;
}

export function formatReport(report: ImportReport): string {
  const lines = [
    `${report.dryRun ? 'Dry run (nothing written): ' : ''}${report.rows} rows read as ${report.format}`,
    `  created:  ${report.created}`,
    `  existing: ${report.existing}`,
    `  rejected: ${report.rejected}`,
  ];
  for (const r of report.rejections) lines.push(`    row ${r.row}${r.code ? ` (${r.code})` : ''}: ${r.reason}: ${r.detail}`);
  if (report.rejected > report.rejections.length) lines.push(`    … and ${report.rejected - report.rejections.length} more`);
  return lines.join('\n');
}

async function importFile(
  transfer: LinkTransferDeps, accounts: AccountServices, limits: Config['imports'], file: { path: string; size: number }, options: ImportCommandOptions,
): Promise<void> {
  const workspaceId = await targetWorkspace(transfer, options.workspace);
  const operator = await workspaceOperator(accounts, workspaceId);
  const progress = importProgress(file.size);
  // The operator's own file: any number of rows (IMPORT_MAX_ROWS bounds what a user can send the API);
  // the bounds per row still hold memory down.
  const { maxFields, maxRowBytes } = limits;
  const source = await readImport(fs.createReadStream(file.path).pipe(progress.meter), { maxRows: Number.POSITIVE_INFINITY, maxFields, maxRowBytes }, options.format);
  let report: ImportReport;
  try {
    report = await importLinks(transfer, { domain: transfer.domain, workspaceId, ownerId: operator.userId }, source, {
      dryRun: options.dryRun, onProgress: progress.update,
    });
  } finally {
    progress.stop();
  }
  console.log(options.json ? JSON.stringify(report, null, 2) : formatReport(report));
  if (report.rejected > 0) process.exitCode = EXIT.rowsRejected;
}

export function registerImportCommand(program: Command): void {
  program.command('import')
    .description('import links from a Linkforge, Bitly, Shlink, Kutt or YOURLS export; each short code is kept. Safe to run again: rows already there are reported as existing')
    .argument('<file>', 'the export file (CSV or JSON)')
    .option('--workspace <id>', 'the workspace to import into (default: the only one, when there is exactly one)', parseId)
    .addOption(new Option('--format <format>', 'the file\'s format (default: detected from its first line)').choices(IMPORT_FORMATS))
    .option('--dry-run', 'read and check every row, report what would happen, write nothing')
    .option('--json', 'print the report as JSON')
    .action(async (file: string, options: ImportCommandOptions) => {
      // A file that is not there fails before the database is opened.
      const size = fs.statSync(file).size;
      await withDeps((deps) => importFile(deps.links.transfer, deps.accounts, deps.config.imports, { path: file, size }, options));
    });
}
