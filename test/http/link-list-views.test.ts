import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addMember, createLink, createWorkspace } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

interface Listed {
  id: number; shortCode: string; humanCount: number; trend: number[]; lastClickAt: string | null;
  permissions: { edit: boolean; delete: boolean };
}
interface Page { items: Listed[]; total: number; nextCursor: string | null }

/** The dashboard's list: what the caller may do per link, sorting, totals and page offsets, the click trend. */
describe('GET /api/urls as a dashboard reads it', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let member: RegisteredUser;
  let team: number;
  let links: Array<{ id: number; shortCode: string }>;
  const suite = suiteScope();

  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    [owner, member] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    team = await createWorkspace(t.app, owner.token);
    await addMember(t.app, owner.token, team, member.user.email, 'member');
    links = [];
    for (const n of [0, 1, 2, 3]) links.push(await createLink(t.app, owner.token, { url: `https://example.com/views/${n}`, workspaceId: team }));
    links.push(await createLink(t.app, member.token, { url: 'https://example.com/views/member', workspaceId: team }));
    const db = t.deps.database.db;
    // clicks: link 1 most, then 3, then 0; link 2 and the member's never clicked
    for (const [index, count] of [[0, 2], [1, 9], [3, 5]] as const) await db.updateTable('links').set({ human_count: count }).where('id', '=', links[index]!.id).execute();
    const now = t.clock.now();
    const hour = Math.floor(now / HOUR) * HOUR;
    await db.insertInto('link_clicks_hourly').values([
      { link_id: links[0]!.id, hour_start: hour - HOUR, visitor_class: 'human', clicks: 2 },
      { link_id: links[1]!.id, hour_start: hour - 3 * DAY, visitor_class: 'human', clicks: 4 },
      { link_id: links[1]!.id, hour_start: hour - 20 * DAY, visitor_class: 'human', clicks: 5 },
      { link_id: links[3]!.id, hour_start: hour - 2 * DAY, visitor_class: 'human', clicks: 5 },
      { link_id: links[3]!.id, hour_start: hour, visitor_class: 'bot', clicks: 7 },
    ]).execute();
  });

  const list = async (user: RegisteredUser, query: string): Promise<Page> => {
    const response = await t.app.inject({ method: 'GET', url: `/api/urls?workspaceId=${team}&${query}`, headers: bearer(user.token) });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };
  const order = (page: Page) => page.items.map((item) => links.findIndex((link) => link.id === item.id));

  test('each link says what the caller may do: a member only their own, an owner everything', async () => {
    const asMember = await list(member, '');
    const mine = asMember.items.find((item) => item.id === links[4]!.id)!;
    const colleagues = asMember.items.find((item) => item.id === links[0]!.id)!;
    assert.deepEqual(mine.permissions, { edit: true, delete: true });
    assert.deepEqual(colleagues.permissions, { edit: false, delete: false });
    assert.ok((await list(owner, '')).items.every((item) => item.permissions.edit && item.permissions.delete));
    const one = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/urls/${id}`, headers: bearer(member.token) })).json().permissions;
    assert.deepEqual(await one(links[0]!.id), { edit: false, delete: false }, 'one link answers the same, for its own page');
    assert.deepEqual(await one(links[4]!.id), { edit: true, delete: true });
  });

  test('sorts by created, people\'s clicks or last click, either way, with the id breaking ties', async () => {
    assert.deepEqual(order(await list(owner, '')), [4, 3, 2, 1, 0]);
    assert.deepEqual(order(await list(owner, 'sort=created&order=asc')), [0, 1, 2, 3, 4]);
    assert.deepEqual(order(await list(owner, 'sort=clicks')), [1, 3, 0, 4, 2]);
    assert.deepEqual(order(await list(owner, 'sort=clicks&order=asc')), [2, 4, 0, 3, 1]);
    assert.deepEqual(order(await list(owner, 'sort=lastClick')), [0, 3, 1, 4, 2]);
    assert.deepEqual(order(await list(owner, 'sort=lastClick&order=asc')), [2, 4, 1, 3, 0]);
  });

  test('answers the total the filters match, pages by offset, and filters to the caller\'s own links', async () => {
    const page = await list(owner, 'limit=2&offset=2&sort=created');
    assert.equal(page.total, 5);
    assert.deepEqual(order(page), [2, 1]);
    assert.equal(page.nextCursor, null, 'an offset page has no cursor');
    const search = await list(owner, 'q=views%2F1&limit=1');
    assert.equal(search.total, 1);
    const mine = await list(member, 'mine=true');
    assert.deepEqual(order(mine), [4]);
    assert.equal(mine.total, 1);
  });

  test('the trend is people\'s clicks per day for the last 14 days, today last; lastClickAt the hour of the last', async () => {
    const page = await list(owner, '');
    const byIndex = (index: number) => page.items.find((item) => item.id === links[index]!.id)!;
    const expected = (entries: Record<number, number>) => Array.from({ length: 14 }, (_, i) => entries[13 - i] ?? 0);
    const hour = Math.floor(t.clock.now() / HOUR) * HOUR;
    const dayOf = (ms: number) => Math.floor(ms / DAY);
    const today = dayOf(t.clock.now());
    assert.deepEqual(byIndex(0).trend, expected({ [today - dayOf(hour - HOUR)]: 2 }));
    assert.deepEqual(byIndex(1).trend, expected({ [today - dayOf(hour - 3 * DAY)]: 4 }), 'clicks 20 days ago are outside');
    assert.deepEqual(byIndex(3).trend, expected({ [today - dayOf(hour - 2 * DAY)]: 5 }), 'bots are not people');
    assert.equal(byIndex(0).lastClickAt, new Date(hour - HOUR).toISOString());
    assert.equal(byIndex(2).lastClickAt, null);
  });

  test('a cursor with another order is a 400; a workspace the caller is not in is a 404', async () => {
    const cursor = (await list(owner, 'limit=1')).nextCursor!;
    const refused = await t.app.inject({ method: 'GET', url: `/api/urls?cursor=${cursor}&sort=clicks`, headers: bearer(owner.token) });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().code, 'cursor_invalid');
    const stranger = await registerUser(t.app);
    const foreign = await t.app.inject({ method: 'GET', url: `/api/urls?workspaceId=${team}`, headers: bearer(stranger.token) });
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.json().code, 'workspace_not_found');
  });
});
