import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCliBackend, oneLine, type CliBackend } from '../support/cli.js';
import { DEFAULT_PASSWORD } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** ADR 0030: `link create --tag`, and `tag list | rename | colour | delete`. */
describe('linkforge tags', () => {
  let cli: CliBackend;
  const suite = suiteScope();
  before(async () => {
    cli = await createCliBackend(suite);
    assert.equal((await cli.run(['user', 'create', 'tagger@example.com'], { input: DEFAULT_PASSWORD })).code, 0);
  });

  test('link create --tag (repeatable) tags the link; tag list shows names, colours and counts', async (context) => {
    const empty = await cli.run(['tag', 'list']);
    assert.match(empty.stdout, /no tags yet/);
    const created = await cli.run(['link', 'create', 'https://example.com/cli/tagged', '--code', 'clitag', '--tag', 'Launch', '--tag', 'news']);
    assert.equal(created.code, 0, created.stderr);
    assert.equal((await cli.run(['link', 'create', 'https://example.com/cli/tagged-2', '--tag', 'launch'])).code, 0);
    const listed = await cli.run(['tag', 'list']);
    assert.equal(listed.stdout, 'Launch\tgray\t2 links\nnews\tgray\t1 link\n');
    const json = JSON.parse((await cli.run(['tag', 'list', '--json'])).stdout);
    assert.deepEqual(json.map((tag: { name: string; linkCount: number }) => [tag.name, tag.linkCount]), [['Launch', 2], ['news', 1]]);
    const t = await cli.app(context);
    const link = (await t.deps.store.findLinkByCode(t.deps.redirects.domain, 'clitag'))!;
    const tags = await t.deps.links.owned.tags.tagsOfLinks([link.id]);
    assert.deepEqual(tags.get(link.id)!.map((tag) => tag.name), ['Launch', 'news']);
  });

  test('tag rename, colour and delete act on the tag by name, whatever its case', async () => {
    assert.equal((await cli.run(['tag', 'rename', 'LAUNCH', 'Go live'])).stdout, 'Go live\tgray\n');
    assert.equal((await cli.run(['tag', 'colour', 'go live', '#FF8800'])).stdout, 'Go live\t#ff8800\n');
    assert.equal((await cli.run(['tag', 'delete', 'news'])).code, 0);
    assert.equal((await cli.run(['tag', 'list'])).stdout, 'Go live\t#ff8800\t2 links\n');
  });

  test('a bad tag, a bad colour or an unknown tag is one line naming the problem, and exit 1', async () => {
    const bad = await cli.run(['link', 'create', 'https://example.com/cli/bad', '--tag', 'a,b']);
    assert.equal(bad.code, 1);
    assert.match(oneLine(bad.stderr), /^linkforge: tags: .*\(tag_name_invalid\)$/);
    const colour = await cli.run(['tag', 'colour', 'go live', 'chartreuse']);
    assert.match(oneLine(colour.stderr), /colour: .*\(tag_colour_invalid\)$/);
    const missing = await cli.run(['tag', 'delete', 'nothing']);
    assert.equal(missing.code, 1);
    assert.match(oneLine(missing.stderr), /no tag named "nothing"\. \(tag_not_found\)$/);
  });
});
