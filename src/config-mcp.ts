import type { EnvReader } from './config-env-reader.js';

/** What `linkforge mcp` needs: the Linkforge it is a client of, and the key it acts with (ADR 0033). */
export interface McpConfig {
  /** The instance's origin (and any path prefix it is served under), without a trailing slash. */
  readonly url: string;
  /** Sent as `Authorization: Bearer …`: a workspace API key (`lfk_…`), or a user's token. */
  readonly apiKey: string;
  /** The workspace to act in; undefined: the key's own (the one workspace it lists). */
  readonly workspaceId: number | undefined;
}

/** The server's own default address (PORT 8080 on HOST 127.0.0.1). */
export const DEFAULT_LINKFORGE_URL = 'http://127.0.0.1:8080';

export function readMcpConfig(read: EnvReader): McpConfig {
  const apiKey = read.optional('LINKFORGE_API_KEY');
  if (apiKey === undefined) {
    read.problems.push('LINKFORGE_API_KEY is required: a workspace API key (lfk_…) made in the web UI or with POST /api/v1/workspaces/{id}/api-keys');
  }
  const url = read.string('LINKFORGE_URL', DEFAULT_LINKFORGE_URL);
  if (!isHttpUrl(url)) read.problems.push(`LINKFORGE_URL must be an http(s) URL such as ${DEFAULT_LINKFORGE_URL} (got "${url}")`);
  const workspace = read.optional('LINKFORGE_WORKSPACE_ID');
  const workspaceId = workspace === undefined ? undefined : read.int('LINKFORGE_WORKSPACE_ID', 0, 1);
  return { url: url.replace(/\/+$/, ''), apiKey: apiKey ?? '', workspaceId };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}
