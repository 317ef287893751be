import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createCliBackend } from './cli.js';
import { nodeEntry } from './node-entry.js';
import { registerOverHttp, startServer, type ServerProcess } from './server-process.js';
import { onTeardown, type TeardownScope } from './teardown.js';

/** A running Linkforge on the suite's database, a user, and an API key of the user's personal workspace. */
export interface InstanceWithKey {
  readonly server: ServerProcess;
  /** The user's session token. */
  readonly token: string;
  readonly workspaceId: number;
  /** `lfk_…`, for the personal workspace. */
  readonly key: string;
  /** `fetch` of a path on the instance with the API key, to check what the tools did. */
  api(path: string, init?: RequestInit): Promise<Response>;
}

export async function startInstanceWithKey(scope: TeardownScope): Promise<InstanceWithKey> {
  const backend = await createCliBackend(scope);
  const server = await startServer(scope, { ...backend.env, LOG_LEVEL: 'info', ANALYTICS_FLUSH_INTERVAL: '100ms', RATE_LIMIT_AUTH: '0' });
  // The ready line names the database: the suite's own (LINKFORGE_TEST_DATABASE).
  assert.match(server.output(), new RegExp(`Linkforge is ready.*${backend.name} `));
  const token = await registerOverHttp(server);
  const call = (path: string, credential: string, init: RequestInit = {}) => fetch(`${server.baseUrl}${path}`, {
    ...init, headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json', ...init.headers as Record<string, string> },
  });
  const me = await (await call('/api/auth/me', token)).json() as { workspaces: Array<{ id: number; isPersonal: boolean }> };
  const workspaceId = me.workspaces.find((workspace) => workspace.isPersonal)!.id;
  const made = await call(`/api/v1/workspaces/${workspaceId}/api-keys`, token, { method: 'POST', body: JSON.stringify({ name: 'mcp' }) });
  assert.equal(made.status, 201, await made.clone().text());
  const { key } = await made.json() as { key: string };
  return { server, token, workspaceId, key, api: (path, init) => call(path, key, init) };
}

export interface McpSession {
  readonly client: Client;
  /** What `linkforge mcp` wrote to stderr so far. */
  stderr(): string;
}

/** `linkforge mcp` started by the SDK's client over stdio, as an AI client starts it; closed when `scope` ends. */
export async function connectMcp(scope: TeardownScope, env: Record<string, string>): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeEntry('src/cli/main.ts'), 'mcp'],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const client = new Client({ name: 'linkforge-tests', version: '1.0.0' });
  await client.connect(transport);
  onTeardown(scope, () => client.close());
  return { client, stderr: () => stderr };
}

/** A tool's answer, typed as the protocol's result. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return await client.callTool({ name, arguments: args }) as CallToolResult;
}

/** The one text block of a result. */
export function textOf(result: CallToolResult): string {
  assert.equal(result.content.length, 1);
  const [block] = result.content;
  assert.equal(block!.type, 'text');
  return (block as { text: string }).text;
}
