import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('the health check pacing settings', () => {
  test('default to a 1 s pause per address, 2 minutes per address and 1000 checks per workspace in a run', () => {
    assert.deepEqual(loadConfig({}).healthcheck, {
      enabled: true, intervalMs: 6 * 3_600_000, addressIntervalMs: 1000, addressBudgetMs: 120_000, workspaceBudget: 1000,
    });
  });

  test('are read from HEALTHCHECK_ADDRESS_INTERVAL, HEALTHCHECK_ADDRESS_BUDGET and HEALTHCHECK_WORKSPACE_BUDGET', () => {
    const config = loadConfig({ HEALTHCHECK_ADDRESS_INTERVAL: '250ms', HEALTHCHECK_ADDRESS_BUDGET: '30s', HEALTHCHECK_WORKSPACE_BUDGET: '50' });
    assert.deepEqual([config.healthcheck.addressIntervalMs, config.healthcheck.addressBudgetMs, config.healthcheck.workspaceBudget], [250, 30_000, 50]);
  });

  test('refuses what does not parse, and a workspace budget of 0, each on its own line', () => {
    assert.throws(
      () => loadConfig({ HEALTHCHECK_ADDRESS_INTERVAL: 'soon', HEALTHCHECK_ADDRESS_BUDGET: '-1s', HEALTHCHECK_WORKSPACE_BUDGET: '0' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.problems.map((problem) => problem.split(' ')[0]),
          ['HEALTHCHECK_ADDRESS_INTERVAL', 'HEALTHCHECK_ADDRESS_BUDGET', 'HEALTHCHECK_WORKSPACE_BUDGET']);
        return true;
      },
    );
  });
});
