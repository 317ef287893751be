import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { deterministicCode } from '../../src/core/short-code.js';
import { createAnonymousLink, createLink, postLink, visit } from '../support/owned-links.js';
import { createSecondInstance, type SecondInstance } from '../support/second-instance.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const SETTINGS = 'https://app.example.com/#/settings';
const BILLING = 'https://app.example.com/#/billing';

describe('client-side routes (ADR 0008) are separate links', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  test('#/settings and #/billing on one page get two links, each going to its own route', async () => {
    const user = await registerUser(t.app);
    const settings = await postLink(t.app, user.token, { url: SETTINGS });
    const billing = await postLink(t.app, user.token, { url: BILLING });
    assert.equal(settings.statusCode, 201);
    assert.equal(billing.statusCode, 201, 'the second route is a new link, not the first one answered again');
    assert.notEqual(billing.json().shortCode, settings.json().shortCode);
    assert.equal(billing.json().normalizedUrl, BILLING);
    assert.equal(billing.json().shortCode, deterministicCode(BILLING, user.personalWorkspaceId, 0),
      'the deterministic code is computed from the canonical form with its route');
    assert.equal((await visit(t.app, settings.json().shortCode)).location, SETTINGS);
    assert.equal((await visit(t.app, billing.json().shortCode)).location, BILLING);
  });

  test('an in-page anchor still merges with the page itself', async () => {
    const user = await registerUser(t.app);
    const page = await postLink(t.app, user.token, { url: 'https://example.com/page' });
    const anchored = await postLink(t.app, user.token, { url: 'https://example.com/page#section-2' });
    assert.equal(page.statusCode, 201);
    assert.equal(anchored.statusCode, 200);
    assert.equal(anchored.json().shortCode, page.json().shortCode);
  });
});

/**
 * A database written before the canonical form kept routes: rows are created through the API, then
 * rewritten on the file into the form the old rules stored (fragment-less normalized_url, the code
 * that form hashed to), and the schema is taken back to where it was before migration 004. The next start runs it.
 */
describe('migration 004 on a database written by the old rules', () => {
  let t: TestApp;
  let restarted: SecondInstance;
  let owner: RegisteredUser;
  let other: RegisteredUser;
  let codesBefore: Map<number, string>;
  const ids: Record<string, number> = {};
  const OLD_SETTINGS_FORM = 'https://app.example.com/';

  const suite = suiteScope();
  before(async () => {
    // Rows rewritten in the SQLite file to what the old rules stored: this migration's test is SQLite's.
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', RATE_LIMIT_ANON: '0' }, { database: 'sqlite' });
    owner = await registerUser(t.app);
    other = await registerUser(t.app);
    ids.settings = (await createLink(t.app, owner.token, { url: SETTINGS })).id;
    ids.anchor = (await createLink(t.app, owner.token, { url: 'https://example.com/page#section-2' })).id;
    ids.anonymous = (await createAnonymousLink(t.app, 'https://app.example.com/#!/inbox')).id;
    ids.bang = (await createLink(t.app, other.token, { url: 'https://app.example.com/#!/x' })).id;
    ids.holder = (await createLink(t.app, other.token, { url: 'https://elsewhere.example/' })).id;
    await t.app.close();
    await t.deps.close();

    const file = new SQLite(t.config.database.kind === 'sqlite' ? t.config.database.path : assert.fail('sqlite expected'));
    const setRow = file.prepare('update links set normalized_url = ?, code = ? where id = ?');
    setRow.run(OLD_SETTINGS_FORM, deterministicCode(OLD_SETTINGS_FORM, owner.personalWorkspaceId, 0), ids.settings);
    setRow.run(OLD_SETTINGS_FORM, deterministicCode(OLD_SETTINGS_FORM, other.personalWorkspaceId, 0), ids.bang);
    file.prepare('update links set normalized_url = ? where id = ?').run('https://app.example.com/', ids.anonymous);
    // A row written by other rules that already holds the form the #!/x row would be given.
    file.prepare('update links set normalized_url = ? where id = ?').run('https://app.example.com/#!/x', ids.holder);
    // Back to the schema as it was before 004: 022 (destinations), 019 (tags), 017 (unique visitors), 016 (cities), 015 (countries), 014 (operator controls), 013 (sessions), 012 (the change log), 011 (breakdown order) and 010
    // (analytics bounds: a column and indexes of tables that go with 009 and 006), 009 (visit facts),
    // 008 (visit ranges), 007 (cleanup visits, check order), 006 (analytics) and 005 (leaner link
    // indexes) undone, all marked not run.
    // 026 (custom domains) added one table.
    file.exec(`drop table domains; delete from kysely_migration where name = '026_custom_domains';`);
    // 025 (webhooks) added two tables and triggers that name columns of links.
    file.exec(`drop trigger webhook_link_inserted; drop trigger webhook_link_updated; drop table webhook_deliveries; drop table webhook_endpoints;
      delete from kysely_migration where name = '025_webhooks';`);
    // 024 (sign-in identities) added one table.
    file.exec(`drop table user_identities; delete from kysely_migration where name = '024_user_identities';`);
    // 023 (API key scopes) added two columns.
    file.exec(`
      alter table api_keys drop column expires_at; alter table api_keys drop column scopes;
      delete from kysely_migration where name = '023_api_key_scopes';`);
    // 018 (share addresses of links' stats) added one table.
    file.exec(`drop table link_shares; delete from kysely_migration where name = '018_link_shares';`);
    file.exec(`drop table link_tags; drop table tags; delete from kysely_migration where name = '019_link_tags';`);
    file.exec(`
      drop trigger link_changes_trim; drop trigger link_changes_on_insert; drop trigger link_changes_on_update;
      drop trigger link_changes_on_delete; drop table link_changes;
      delete from kysely_migration where name = '012_link_changes';`);
    // 014's, 020's and 021's columns go once 012's triggers, which name them, are gone.
    file.exec(`
      ${['links', 'links_archive'].flatMap((table) => ['options', 'password_hash', 'max_clicks', 'clicks_left'].map((column) => `alter table ${table} drop column ${column};`)).join('\n')}
      delete from kysely_migration where name = '021_link_options';
      ${['links', 'links_archive'].map((table) => `alter table ${table} drop column redirect_status;`).join('\n')}
      delete from kysely_migration where name = '020_link_redirect_status';
      ${['links', 'links_archive'].flatMap((table) => ['disabled_at', 'disabled_reason', 'disabled_by'].map((column) => `alter table ${table} drop column ${column};`)).join('\n')}
      alter table users drop column disabled_at;
      delete from kysely_migration where name = '014_operator_controls';`);
    // 017 (unique visitors) added two tables, and a column of a table the undoing of 006 drops whole.
    file.exec(`
      drop table visitor_salts; drop table link_visitors;
      delete from kysely_migration where name = '017_unique_visitors';`);
    // 022 (a visit's destination), 016 (a visit's city) and 015 (its country) changed tables that the
    // undoing of 009 and 006 below drops whole; 013 (the session counter) added one column.
    file.exec(`
      delete from kysely_migration where name in ('022_visit_destination', '016_visit_city', '015_visit_country');
      alter table users drop column session_epoch;
      delete from kysely_migration where name = '013_session_epoch';`);
    file.exec(`delete from kysely_migration where name in ('011_breakdown_order', '010_analytics_bounds');`);
    file.exec(`
      alter table visits drop column facts_id;
      drop table visit_facts;
      ${['referrer_host', 'browser', 'os', 'device'].map((column) => `alter table visits add column ${column} text;`).join('\n')}
      alter table visits add column is_bot integer not null default 0;
      alter table visits add column visitor_class text not null default 'human';
      delete from kysely_migration where name = '009_visit_facts';`);
    file.exec(`
      drop table visit_ranges;
      create index visits_link_time_idx on visits (link_id, visited_at);
      delete from kysely_migration where name = '008_visit_ranges';`);
    file.exec(`
      drop index links_health_check_idx;
      alter table cleanup_runs drop column visits_deleted;
      create index visits_visited_at_idx on visits (visited_at);
      delete from kysely_migration where name = '007_cleanup_visits_and_check_order';`);
    const analyticsColumns = { links: ['human_count', 'bot_count', 'preview_count'], links_archive: ['human_count', 'bot_count', 'preview_count'],
      global_stats: ['human_redirects', 'bot_redirects', 'preview_redirects'], visits: ['visitor_class', 'latency_ms'] };
    file.exec(`
      drop table link_clicks_hourly;
      drop table link_breakdown_daily;
      drop index visits_visited_at_idx;
      ${Object.entries(analyticsColumns).flatMap(([table, columns]) => columns.map((column) => `alter table ${table} drop column ${column};`)).join('\n')}
      delete from kysely_migration where name = '006_analytics';`);
    file.exec(`
      drop index links_workspace_url_key;
      create unique index links_workspace_url_key on links (workspace_id, normalized_url);
      create index links_expires_at_idx on links (expires_at);
      create index links_deleted_at_idx on links (deleted_at);
      create index links_owner_idx on links (owner_id, id);
      delete from kysely_migration where name in ('004_client_side_route_fragments', '005_lean_link_indexes');`);
    codesBefore = new Map(file.prepare('select id, code from links').all().map((row) => {
      const { id, code } = row as { id: number; code: string };
      return [Number(id), code];
    }));
    file.close();

    restarted = await createSecondInstance(suite, t, { RATE_LIMIT_AUTH: '0' });
  });

  const rowOf = async (id: number) => restarted.deps.database.db.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  test('the migration ran on restart and no code changed', async () => {
    const ran = await restarted.deps.database.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
    assert.ok((ran as Array<{ name: string }>).some((row) => row.name === '004_client_side_route_fragments'));
    const codesAfter = await restarted.deps.database.db.selectFrom('links').select(['id', 'code']).execute();
    assert.deepEqual(new Map(codesAfter.map((row) => [Number(row.id), row.code])), codesBefore);
  });

  test('rows whose URL has a route fragment get the new canonical form; others keep theirs', async () => {
    assert.equal((await rowOf(ids.settings!)).normalized_url, SETTINGS);
    assert.equal((await rowOf(ids.anonymous!)).normalized_url, 'https://app.example.com/#!/inbox');
    assert.equal((await rowOf(ids.anchor!)).normalized_url, 'https://example.com/page');
  });

  test('a row whose new form another row of its workspace already holds keeps its old form', async () => {
    assert.equal((await rowOf(ids.bang!)).normalized_url, OLD_SETTINGS_FORM);
    assert.equal((await rowOf(ids.holder!)).normalized_url, 'https://app.example.com/#!/x');
  });

  test('creating the old route again answers the existing link with its old code, and it still redirects', async () => {
    const again = await postLink(restarted.app, owner.token, { url: SETTINGS });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().id, ids.settings);
    assert.equal(again.json().shortCode, codesBefore.get(ids.settings!));
    assert.equal((await visit(restarted.app, again.json().shortCode)).location, SETTINGS);
  });

  test('another route of the same page is a new link with the code of its own canonical form', async () => {
    const billing = await postLink(restarted.app, owner.token, { url: BILLING });
    assert.equal(billing.statusCode, 201);
    assert.notEqual(billing.json().id, ids.settings);
    assert.equal(billing.json().shortCode, deterministicCode(BILLING, owner.personalWorkspaceId, 0));
    assert.equal((await visit(restarted.app, billing.json().shortCode)).location, BILLING);
  });
});
