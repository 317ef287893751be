import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../support/test-app.js';
import { createLink } from '../support/owned-links.js';
import { bearer, registerUser } from '../support/users.js';

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/**
 * ADR 0035: an instance whose endpoints do not ask for link.clicked (most) pays one small read
 * every few seconds after its flushes, never a join over each flush's links.
 */
describe('link.clicked: what a flush costs when no endpoint asks for it', () => {
  test('one read of the endpoints per five seconds of flushes, no join; an endpoint added is heard of at the next check', async (context) => {
    const t = await createTestApp(context, { ANALYTICS_ENABLED: 'true', RATE_LIMIT_AUTH: '0', ALLOW_PRIVATE_DESTINATIONS: 'true' });
    t.clock.set(Date.now());
    const owner = await registerUser(t.app);
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/clicked' });
    const visitAndFlush = async () => {
      assert.equal((await t.app.inject({ url: `/${link.shortCode}`, headers: { 'user-agent': PERSON } })).statusCode, 301);
      await t.deps.analytics!.flusher.flushNow();
    };
    const endpointReads = () => t.statements.filter((sql) => sql.includes('"webhook_endpoints"'));
    t.statements.length = 0;
    for (let n = 0; n < 3; n++) await visitAndFlush();
    assert.equal(endpointReads().length, 1, endpointReads().join('\n'));
    assert.ok(!endpointReads().some((sql) => sql.includes('join "links"')), 'no join while no endpoint asks');

    const made = await t.app.inject({
      method: 'POST', url: `/api/v1/workspaces/${owner.personalWorkspaceId}/webhooks`, headers: bearer(owner.token),
      payload: { url: 'http://127.0.0.1:9/clicks', events: ['link.clicked'] },
    });
    assert.equal(made.statusCode, 201, made.body);
    const endpointId = (made.json() as { id: number }).id;
    const queued = () => t.deps.database.db.selectFrom('webhook_deliveries').select('event_type').where('endpoint_id', '=', endpointId).execute();
    await visitAndFlush();
    assert.deepEqual(await queued(), [], 'within five seconds of the last check the flush does not know yet');
    t.clock.advance(5_000);
    await visitAndFlush();
    assert.deepEqual((await queued()).map((row) => row.event_type), ['link.clicked']);
  });
});
