import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpConfig } from '../config.js';
import { keyWorkspace } from './key-workspace.js';
import { linkforgeApi } from './linkforge-api.js';
import { registerLinkTools } from './link-tools.js';
import { registerStatsTool } from './stats-tool.js';

/** The MCP server's tools over the HTTP API of the Linkforge `config` names (ADR 0033). */
export function buildMcpServer(config: McpConfig, version: string): McpServer {
  const server = new McpServer({ name: 'linkforge', version }, {
    instructions: 'Tools for the short links of one Linkforge workspace (the API key\'s): create, find, read, change and delete links, and read a link\'s click stats. Links are addressed by their code.',
  });
  const api = linkforgeApi(config);
  const kit = { server, api, workspace: keyWorkspace(api, config.workspaceId) };
  registerLinkTools(kit);
  registerStatsTool(kit);
  return server;
}

/**
 * Serves the tools on stdin and stdout until the client closes stdin. stdout carries the protocol
 * alone: whatever else is said goes to stderr.
 */
export async function serveMcpOverStdio(config: McpConfig, version: string): Promise<void> {
  const server = buildMcpServer(config, version);
  const ended = new Promise<void>((resolve) => process.stdin.once('end', resolve));
  await server.connect(new StdioServerTransport());
  await ended;
  await server.close();
}
