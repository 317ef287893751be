import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCliBackend, oneLine, type CliBackend } from '../support/cli.js';
import { DEFAULT_PASSWORD } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** The abuse workflow from a shell: disable and enable a link by its code, and a user by their email. */
describe('linkforge link disable|enable and user disable|enable', () => {
  let cli: CliBackend;
  const suite = suiteScope();
  before(async () => {
    cli = await createCliBackend(suite);
    const created = await cli.run(['user', 'create', 'abuser@example.com'], { input: `${DEFAULT_PASSWORD}\n` });
    assert.equal(created.code, 0, created.stderr);
    const link = await cli.run(['link', 'create', 'https://example.com/phish', '--code', 'phishy']);
    assert.equal(link.code, 0, link.stderr);
  });

  test('a disabled link answers 410 with the reason; enabled, it redirects again', async (t) => {
    const disabled = await cli.run(['link', 'disable', 'phishy', '--reason', 'Reported as phishing']);
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.equal(disabled.stdout, 'Disabled phishy (to https://example.com/phish): Reported as phishing\n');
    let app = await cli.app(t);
    const gone = await app.app.inject({ url: '/phishy' });
    assert.deepEqual([gone.statusCode, gone.json().disabledReason], [410, 'Reported as phishing']);
    await app.close();

    const enabled = await cli.run(['link', 'enable', 'phishy']);
    assert.equal(enabled.code, 0, enabled.stderr);
    app = await cli.app(t);
    assert.equal((await app.app.inject({ url: '/phishy' })).statusCode, 301);
    await app.close();
  });

  test('a disabled user cannot sign in; enabled, they can', async (t) => {
    const login = async () => {
      const app = await cli.app(t);
      const response = await app.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'abuser@example.com', password: DEFAULT_PASSWORD } });
      await app.close();
      return response;
    };
    const disabled = await cli.run(['user', 'disable', 'ABUSER@example.com']);
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.match(disabled.stdout, /^Disabled abuser@example\.com \(user \d+\)\n$/);
    assert.equal((await login()).json().code, 'account_disabled');
    assert.equal((await cli.run(['user', 'enable', 'abuser@example.com'])).code, 0);
    assert.equal((await login()).statusCode, 200);
  });

  test('an unknown code, an unknown email and a blank reason are one line each, exit 1, nothing changed', async () => {
    for (const args of [['link', 'disable', 'nosuch', '--reason', 'x'], ['user', 'disable', 'nobody@example.com'], ['link', 'disable', 'phishy', '--reason', '  ']]) {
      const result = await cli.run(args);
      assert.equal(result.code, 1, args.join(' '));
      assert.match(oneLine(result.stderr), /^linkforge: .*\((link_not_found|user_not_found|disable_reason_invalid)\)$/, args.join(' '));
    }
  });
});
