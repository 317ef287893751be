import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.js';

const OIDC = { OIDC_ISSUER: 'https://login.example.com/realms/main', OIDC_CLIENT_ID: 'linkforge', OIDC_CLIENT_SECRET: 'a-secret' };

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  return assert.fail('expected a ConfigError');
}

describe('sign-in settings (PASSWORD_LOGIN, OIDC_*)', () => {
  test('by default passwords sign in and no provider is configured', () => {
    assert.deepEqual(loadConfig({}).signIn, { passwordLogin: true, oidc: undefined });
  });

  test('the three OIDC_* variables configure the provider; the button name defaults to "single sign-on"', () => {
    assert.deepEqual(loadConfig(OIDC).signIn.oidc, {
      issuer: OIDC.OIDC_ISSUER, loopbackHttp: false, clientId: 'linkforge', clientSecret: 'a-secret', name: 'single sign-on', adminGroups: undefined,
    });
    const named = loadConfig({ ...OIDC, OIDC_NAME: 'Acme ID', OIDC_ADMIN_GROUPS: ' ops, linkforge-admins ,' }).signIn.oidc;
    assert.equal(named?.name, 'Acme ID');
    assert.deepEqual(named?.adminGroups, ['ops', 'linkforge-admins']);
  });

  test('all three or none: each missing one is named', () => {
    const [problem] = problemsOf({ OIDC_ISSUER: OIDC.OIDC_ISSUER, OIDC_CLIENT_ID: 'linkforge' });
    assert.match(problem!, /all three or none \(missing OIDC_CLIENT_SECRET\)/);
    assert.match(problemsOf({ OIDC_CLIENT_SECRET: 'x' })[0]!, /missing OIDC_ISSUER, OIDC_CLIENT_ID/);
  });

  test('the issuer is an https URL; plain http only on a loopback host', () => {
    for (const issuer of ['http://login.example.com', 'ftp://login.example.com', 'login.example.com', 'https://login.example.com/?realm=x', 'https://user:pw@login.example.com']) {
      assert.match(problemsOf({ ...OIDC, OIDC_ISSUER: issuer }).join('\n'), /OIDC_ISSUER must be an https:\/\/ URL/, issuer);
    }
    for (const issuer of ['http://127.0.0.1:9000', 'http://localhost:9000/realms/test', 'http://[::1]:9000']) {
      assert.deepEqual(loadConfig({ ...OIDC, OIDC_ISSUER: issuer }).signIn.oidc?.loopbackHttp, true, issuer);
    }
  });

  test('PASSWORD_LOGIN=false without a provider stops start-up: nobody could sign in', () => {
    assert.match(problemsOf({ PASSWORD_LOGIN: 'false' }).join('\n'), /PASSWORD_LOGIN=false needs single sign-on/);
    assert.equal(loadConfig({ ...OIDC, PASSWORD_LOGIN: 'false' }).signIn.passwordLogin, false);
  });

  test('OIDC_ADMIN_GROUPS without a provider is refused', () => {
    assert.match(problemsOf({ OIDC_ADMIN_GROUPS: 'ops' }).join('\n'), /OIDC_ADMIN_GROUPS needs OIDC_ISSUER/);
  });
});
