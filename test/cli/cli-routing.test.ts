import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCliBackend, oneLine, type CliBackend } from '../support/cli.js';
import { DEFAULT_PASSWORD } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** ADR 0031: `link create --route … --variant …`, under the API's rules. */
describe('linkforge link create with routes and variants', () => {
  let cli: CliBackend;
  const suite = suiteScope();
  before(async () => {
    cli = await createCliBackend(suite);
    assert.equal((await cli.run(['user', 'create', 'router@example.com'], { input: DEFAULT_PASSWORD })).code, 0);
  });

  test('--route (in order) and --variant (repeatable) are stored on the link', async (context) => {
    const created = await cli.run(['link', 'create', 'https://example.com/cli/routed', '--code', 'cliroute',
      '--route', 'country=de, AT;device=ios;url=https://example.com/de?x=1;y=2',
      '--route', 'language=pt;url=https://example.com/pt',
      '--variant', 'https://example.com/a?k=v=3', '--variant', 'https://example.com/b=1']);
    assert.equal(created.code, 0, created.stderr);
    const t = await cli.app(context);
    const link = (await t.deps.store.findLinkByCode(t.deps.redirects.domain, 'cliroute'))!;
    assert.deepEqual(link.options, {
      routes: [{ country: ['DE', 'AT'], device: ['ios'], url: 'https://example.com/de?x=1;y=2' }, { language: ['pt'], url: 'https://example.com/pt' }],
      variants: [{ url: 'https://example.com/a?k=v', weight: 3 }, { url: 'https://example.com/b', weight: 1 }],
    });
  });

  test('a malformed flag or a route the rules refuse is one line naming the problem, and exit 1', async () => {
    const noUrl = await cli.run(['link', 'create', 'https://example.com/cli/bad', '--route', 'country=DE']);
    assert.notEqual(noUrl.code, 0);
    assert.match(noUrl.stderr, /--route .*give the URL last, as url=/);
    const privateRoute = await cli.run(['link', 'create', 'https://example.com/cli/bad', '--route', 'device=ios;url=http://10.0.0.1/']);
    assert.equal(privateRoute.code, 1);
    assert.match(oneLine(privateRoute.stderr), /routes\[0\]\.url: .*\(url_private_address_not_allowed\)$/);
    const oneVariant = await cli.run(['link', 'create', 'https://example.com/cli/bad', '--variant', 'https://example.com/a=1']);
    assert.match(oneLine(oneVariant.stderr), /\(variants_invalid\)$/);
  });
});
