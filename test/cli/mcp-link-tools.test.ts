import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { callTool, connectMcp, startInstanceWithKey, textOf, type InstanceWithKey, type McpSession } from '../support/mcp-client.js';
import { suiteScope } from '../support/teardown.js';

interface LinkJson { short_code: string; short_url: string; original_url: string; status: string; tags: string[]; expires_at: string | null; max_clicks: number | null }

describe('linkforge mcp: the link tools act on the API key\'s workspace through the HTTP API', () => {
  const suite = suiteScope();
  let instance: InstanceWithKey;
  let mcp: McpSession;
  const unique = `${process.pid}-${Date.now()}`;
  const linkOverHttp = async (code: string) => {
    const response = await instance.api(`/api/v1/workspaces/${instance.workspaceId}/links/${code}`);
    return { status: response.status, link: await response.json() as LinkJson };
  };

  before(async () => {
    instance = await startInstanceWithKey(suite);
    mcp = await connectMcp(suite, { LINKFORGE_URL: instance.server.baseUrl, LINKFORGE_API_KEY: instance.key });
  });

  test('lists the six tools, each with a described input schema and an output schema', async () => {
    const { tools } = await mcp.client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['create_link', 'delete_link', 'find_links', 'get_link', 'get_link_stats', 'update_link']);
    for (const tool of tools) {
      assert.ok(tool.description, tool.name);
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        assert.ok((schema as { description?: string }).description, `${tool.name}.${field} has a description`);
      }
    }
    const create = tools.find((tool) => tool.name === 'create_link')!;
    assert.deepEqual(create.inputSchema.required, ['url']);
    assert.deepEqual(Object.keys(create.inputSchema.properties!).sort(), ['code', 'expires_at', 'fallback_url', 'max_clicks', 'redirect_status', 'tags', 'url']);
    assert.equal(tools.find((tool) => tool.name === 'delete_link')!.annotations?.destructiveHint, true);
    assert.equal(tools.find((tool) => tool.name === 'find_links')!.annotations?.readOnlyHint, true);
  });

  test('create_link makes the link in the key\'s workspace with its code, expiry and tags; the same URL again answers it, created: false', async () => {
    const url = `https://example.com/launch-${unique}`;
    const expiresAt = '2099-01-31T12:00:00.000Z';
    const result = await callTool(mcp.client, 'create_link', { url, code: `launch-${unique}`, expires_at: expiresAt, tags: ['Spring', 'launch'], max_clicks: 50 });
    assert.equal(result.isError, undefined, textOf(result));
    const { link, created } = result.structuredContent as { link: LinkJson; created: boolean };
    assert.equal(created, true);
    assert.match(textOf(result), new RegExp(`^Created: ${link.short_url} → ${url}`));

    const { status, link: stored } = await linkOverHttp(`launch-${unique}`);
    assert.equal(status, 200);
    assert.deepEqual({ url: stored.original_url, expires: stored.expires_at, tags: [...stored.tags].sort(), max: stored.max_clicks }, { url, expires: expiresAt, tags: ['Spring', 'launch'].sort(), max: 50 });
    assert.deepEqual(link, stored);

    const again = await callTool(mcp.client, 'create_link', { url });
    assert.equal((again.structuredContent as { created: boolean }).created, false);
    assert.equal((again.structuredContent as { link: LinkJson }).link.short_code, `launch-${unique}`);
    assert.match(textOf(again), /^The workspace already had this URL/);
  });

  test('get_link answers the link the API holds', async () => {
    const made = await callTool(mcp.client, 'create_link', { url: `https://example.com/get-${unique}` });
    const code = (made.structuredContent as { link: LinkJson }).link.short_code;
    const result = await callTool(mcp.client, 'get_link', { code });
    assert.equal(result.isError, undefined, textOf(result));
    assert.deepEqual((result.structuredContent as { link: LinkJson }).link, (await linkOverHttp(code)).link);
    assert.match(textOf(result), new RegExp(`→ https://example.com/get-${unique}\\nstatus ACTIVE; no expiry`));
  });

  test('find_links pages the workspace\'s links and keeps only those with the tags asked for', async () => {
    for (const n of [1, 2, 3]) {
      await callTool(mcp.client, 'create_link', { url: `https://example.com/found-${unique}-${n}`, tags: [`found-${unique}`] });
    }
    const first = await callTool(mcp.client, 'find_links', { tags: [`found-${unique}`], limit: 2 });
    assert.equal(first.isError, undefined, textOf(first));
    const page = first.structuredContent as { links: LinkJson[]; next_cursor: string | null };
    assert.deepEqual(page.links.map((link) => link.original_url), [3, 2].map((n) => `https://example.com/found-${unique}-${n}`));
    assert.ok(page.next_cursor);
    assert.match(textOf(first), /^2 links\.\n\n/);
    assert.ok(textOf(first).endsWith(`More: call again with cursor "${page.next_cursor}".`));

    const second = await callTool(mcp.client, 'find_links', { tags: [`found-${unique}`], limit: 2, cursor: page.next_cursor });
    const rest = second.structuredContent as { links: LinkJson[]; next_cursor: string | null };
    assert.deepEqual(rest.links.map((link) => link.original_url), [`https://example.com/found-${unique}-1`]);
    assert.equal(rest.next_cursor, null);

    const overHttp = await (await instance.api(`/api/v1/workspaces/${instance.workspaceId}/links?tags=found-${unique}&limit=3`)).json() as { items: LinkJson[] };
    assert.deepEqual([...page.links, ...rest.links], overHttp.items);

    const searched = await callTool(mcp.client, 'find_links', { query: `FOUND-${unique}-2` });
    assert.deepEqual((searched.structuredContent as { links: LinkJson[] }).links.map((link) => link.original_url), [`https://example.com/found-${unique}-2`],
      'a text matches part of the URL, whatever its case');
  });

  test('update_link changes what it is given, null clearing, and leaves the rest', async () => {
    const code = `change-${unique}`;
    await callTool(mcp.client, 'create_link', { url: `https://example.com/before-${unique}`, code, expires_at: '2099-01-01T00:00:00.000Z', tags: ['kept'] });
    const result = await callTool(mcp.client, 'update_link', { code, url: `https://example.com/after-${unique}`, expires_at: null, redirect_status: 307 });
    assert.equal(result.isError, undefined, textOf(result));
    const { link: stored } = await linkOverHttp(code);
    assert.deepEqual({ url: stored.original_url, expires: stored.expires_at, tags: stored.tags, status: (stored as unknown as { redirect_status: number }).redirect_status },
      { url: `https://example.com/after-${unique}`, expires: null, tags: ['kept'], status: 307 });
    assert.deepEqual((result.structuredContent as { link: LinkJson }).link, stored);
    assert.match(textOf(result), /^Changed: /);
  });

  test('delete_link deletes the link: the API shows it deleted and its code answers 410', async () => {
    const code = `gone-${unique}`;
    await callTool(mcp.client, 'create_link', { url: `https://example.com/gone-${unique}`, code });
    const result = await callTool(mcp.client, 'delete_link', { code });
    assert.equal(result.isError, undefined, textOf(result));
    assert.deepEqual(result.structuredContent, { short_code: code, deleted: true });
    assert.equal((await linkOverHttp(code)).link.status, 'DELETED');
    assert.equal((await fetch(`${instance.server.baseUrl}/${code}`, { redirect: 'manual' })).status, 410);
  });

  test('writes nothing but the protocol to stdout: its one line of stderr names the instance', () => {
    assert.equal(mcp.stderr(), `linkforge: MCP server on stdio for the Linkforge at ${instance.server.baseUrl}\n`);
  });
});
