import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { oneLine, runCli } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import { callTool, connectMcp, startInstanceWithKey, textOf, type InstanceWithKey } from '../support/mcp-client.js';
import { suiteScope } from '../support/teardown.js';

interface Problem { title: string; detail: string; status: number; code: string }

describe('linkforge mcp: what the API refuses is a tool error the model reads, never a crash', () => {
  const suite = suiteScope();
  let instance: InstanceWithKey;
  const unique = `${process.pid}-${Date.now()}`;
  const linksPath = () => `/api/v1/workspaces/${instance.workspaceId}/links`;
  /** What the API itself answers to the same request, as the tool should tell it. */
  const problemOverHttp = async (path: string, init?: RequestInit) => {
    const response = await instance.api(path, init);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem = await response.json() as Problem;
    return `${problem.title}: ${problem.detail} (HTTP ${problem.status}, ${problem.code})`;
  };

  before(async () => {
    instance = await startInstanceWithKey(suite);
  });

  test('a wrong key: every tool answers the API\'s 401 as an error result, and the server goes on answering', async (t) => {
    const mcp = await connectMcp(t, { LINKFORGE_URL: instance.server.baseUrl, LINKFORGE_API_KEY: 'lfk_not-a-key-of-this-instance' });
    const refused = await callTool(mcp.client, 'create_link', { url: `https://example.com/refused-${unique}` });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /: The API key is unknown, revoked or expired\. \(HTTP 401, authentication_required\)$/);
    assert.equal((await callTool(mcp.client, 'find_links', {})).isError, true);
    assert.equal((await mcp.client.listTools()).tools.length, 6);
    const links = await (await instance.api(linksPath())).json() as { items: Array<{ original_url: string }> };
    assert.ok(!links.items.some((link) => link.original_url.includes(`refused-${unique}`)));
  });

  test('a read-only key: reads work, every write is the API\'s 403 insufficient_scope, and nothing changes', async (t) => {
    const made = await fetch(`${instance.server.baseUrl}/api/v1/workspaces/${instance.workspaceId}/api-keys`, {
      method: 'POST', headers: { authorization: `Bearer ${instance.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'read only', scopes: ['links:read'] }),
    });
    assert.equal(made.status, 201, await made.clone().text());
    const { key } = await made.json() as { key: string };
    const mcp = await connectMcp(t, { LINKFORGE_URL: instance.server.baseUrl, LINKFORGE_API_KEY: key });
    assert.equal((await callTool(mcp.client, 'find_links', {})).isError, undefined);
    const refused = await callTool(mcp.client, 'create_link', { url: `https://example.com/read-only-${unique}` });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /\(HTTP 403, insufficient_scope\)$/);
    assert.match(textOf(refused), /links:write/);
    const links = await (await instance.api(linksPath())).json() as { items: Array<{ original_url: string }> };
    assert.ok(!links.items.some((link) => link.original_url.includes(`read-only-${unique}`)));
  });

  test('a destination the API refuses, a code taken, an unknown code: the API\'s title, detail and code, and nothing changes', async (t) => {
    const mcp = await connectMcp(t, { LINKFORGE_URL: instance.server.baseUrl, LINKFORGE_API_KEY: instance.key });
    const privateUrl = await callTool(mcp.client, 'create_link', { url: 'http://127.0.0.1/admin' });
    assert.equal(privateUrl.isError, true);
    assert.equal(textOf(privateUrl), await problemOverHttp(linksPath(), { method: 'POST', body: JSON.stringify({ original_url: 'http://127.0.0.1/admin' }) }));
    assert.match(textOf(privateUrl), /\(HTTP 400, url_[a-z_]+\)$/);

    await callTool(mcp.client, 'create_link', { url: `https://example.com/first-${unique}`, code: `taken-${unique}` });
    const taken = await callTool(mcp.client, 'create_link', { url: `https://example.com/second-${unique}`, code: `taken-${unique}` });
    assert.equal(taken.isError, true);
    assert.match(textOf(taken), /\(HTTP 409, [a-z_]+\)$/);
    const kept = await (await instance.api(`${linksPath()}/taken-${unique}`)).json() as { original_url: string };
    assert.equal(kept.original_url, `https://example.com/first-${unique}`);

    const unknown = await callTool(mcp.client, 'get_link', { code: `nothing-${unique}` });
    assert.equal(unknown.isError, true);
    assert.equal(textOf(unknown), await problemOverHttp(`${linksPath()}/nothing-${unique}`));
    assert.equal((await callTool(mcp.client, 'delete_link', { code: `nothing-${unique}` })).isError, true);
    assert.equal((await callTool(mcp.client, 'update_link', { code: `taken-${unique}` })).isError, true, 'a change of nothing is the API\'s 400');
  });

  test('arguments outside the input schema are refused before any call', async (t) => {
    const mcp = await connectMcp(t, { LINKFORGE_URL: instance.server.baseUrl, LINKFORGE_API_KEY: instance.key });
    const result = await callTool(mcp.client, 'create_link', { url: `https://example.com/limited-${unique}`, max_clicks: 0 });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /max_clicks/);
    const links = await (await instance.api(linksPath())).json() as { items: Array<{ original_url: string }> };
    assert.ok(!links.items.some((link) => link.original_url.includes(`limited-${unique}`)));
  });

  test('an instance out of reach: the error names LINKFORGE_URL and why', async (t) => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const mcp = await connectMcp(t, { LINKFORGE_URL: url, LINKFORGE_API_KEY: instance.key });
    const result = await callTool(mcp.client, 'get_link', { code: 'anything' });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), `Cannot reach Linkforge at ${url}: ECONNREFUSED; is it running, and is LINKFORGE_URL right?`);
  });

  test('a user\'s token reaching several workspaces needs LINKFORGE_WORKSPACE_ID, and then acts there', async (t) => {
    const made = await fetch(`${instance.server.baseUrl}/api/v1/workspaces`, {
      method: 'POST', headers: { authorization: `Bearer ${instance.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Team' }),
    });
    const team = (await made.json() as { id: number }).id;
    const env = { LINKFORGE_URL: instance.server.baseUrl, LINKFORGE_API_KEY: instance.token };
    const several = await connectMcp(t, env);
    const refused = await callTool(several.client, 'find_links', {});
    assert.equal(refused.isError, true);
    assert.equal(textOf(refused), 'No single workspace to act in: the key reaches 2 workspaces; use a workspace API key (lfk_…), or set LINKFORGE_WORKSPACE_ID');

    const chosen = await connectMcp(t, { ...env, LINKFORGE_WORKSPACE_ID: String(team) });
    const result = await callTool(chosen.client, 'create_link', { url: `https://example.com/team-${unique}` });
    assert.equal(result.isError, undefined, textOf(result));
    const code = (result.structuredContent as { link: { short_code: string } }).link.short_code;
    const inTeam = await fetch(`${instance.server.baseUrl}/api/v1/workspaces/${team}/links/${code}`, { headers: { authorization: `Bearer ${instance.token}` } });
    assert.equal(inTeam.status, 200);
  });

  test('without LINKFORGE_API_KEY it says so on stderr and exits 1, with every other problem and nothing on stdout', async () => {
    const result = await runCli(['mcp'], { LINKFORGE_API_KEY: '', LINKFORGE_URL: 'ftp://files.example' });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.deepEqual(result.stderr.trim().split('\n'), [
      'linkforge: Invalid configuration: LINKFORGE_API_KEY is required: a workspace API key (lfk_…) made in the web UI or with POST /api/v1/workspaces/{id}/api-keys',
      'Invalid configuration: LINKFORGE_URL must be an http(s) URL such as http://127.0.0.1:8080 (got "ftp://files.example")',
    ]);
  });

  test('ends with exit code 0 when its client closes stdin', async () => {
    const result = await runCli(['mcp'], { LINKFORGE_API_KEY: instance.key, LINKFORGE_URL: instance.server.baseUrl }, '');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.equal(oneLine(result.stderr), `linkforge: MCP server on stdio for the Linkforge at ${instance.server.baseUrl}`);
  });
});
