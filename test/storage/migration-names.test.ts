import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { migrationsFor } from '../../src/storage/migrations/index.js';

/** The names an existing database has recorded in `kysely_migration`: released ones never change. */
const RELEASED = [
  '001_initial_schema',
  '002_reaper_indexes',
  '003_default_domain_key',
  '004_client_side_route_fragments',
  '005_lean_link_indexes',
  '006_analytics',
  '007_cleanup_visits_and_check_order',
  '008_visit_ranges',
  '009_visit_facts',
  '010_analytics_bounds',
  '011_breakdown_order',
  '012_link_changes',
  '013_session_epoch',
];

const FOLDER = path.join('src', 'storage', 'migrations');

describe('migration names', () => {
  test('every released migration keeps its recorded name, in order, on both databases', () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const names = Object.keys(migrationsFor(dialect));
      assert.deepEqual(names.slice(0, RELEASED.length), RELEASED, dialect);
      assert.deepEqual(names, [...names].sort(), `${dialect}: Kysely applies migrations in name order`);
    }
  });

  test('one file per migration, named by its recorded name (NNN-what-it-does.ts)', () => {
    const files = fs.readdirSync(FOLDER).filter((name) => /^\d{3}-/.test(name)).sort();
    const expected = Object.keys(migrationsFor('sqlite')).map((name) => `${name.replaceAll('_', '-')}.ts`);
    assert.deepEqual(files, expected);
  });
});
