import type { Command } from 'commander';
import { loadMcpConfig } from '../../config.js';
import { serveMcpOverStdio } from '../../mcp/mcp-server.js';
import { loadDotEnv } from '../cli-context.js';

/**
 * `linkforge mcp`: a Model Context Protocol server on stdin/stdout for an AI client, over the HTTP
 * API of a running Linkforge (ADR 0033). Unlike the other commands it opens no database.
 */
export function registerMcpCommand(program: Command): void {
  program.command('mcp')
    .description('serve MCP tools (create, find, get, update, delete links; link stats) on stdin/stdout over a running Linkforge\'s API; set LINKFORGE_API_KEY (and LINKFORGE_URL)')
    .action(async () => {
      loadDotEnv();
      const config = loadMcpConfig();
      console.error(`linkforge: MCP server on stdio for the Linkforge at ${config.url}`);
      await serveMcpOverStdio(config, program.version() ?? '0.0.0');
    });
}
