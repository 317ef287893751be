import { Migrator, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { initialSchema } from './001-initial-schema.js';
import { reaperIndexes } from './002-reaper-indexes.js';
import { defaultDomainKey } from './003-default-domain-key.js';
import { clientSideRouteFragments } from './004-client-side-route-fragments.js';
import { leanLinkIndexes } from './005-lean-link-indexes.js';
import { analytics } from './006-analytics.js';
import { cleanupVisitsAndCheckOrder } from './007-cleanup-visits-and-check-order.js';
import { visitRanges } from './008-visit-ranges.js';
import { visitFacts } from './009-visit-facts.js';
import { analyticsBounds } from './010-analytics-bounds.js';
import { breakdownOrder } from './011-breakdown-order.js';
import { linkChanges } from './012-link-changes.js';
import { sessionEpoch } from './013-session-epoch.js';
import { operatorControls } from './014-operator-controls.js';
import { visitCountry } from './015-visit-country.js';
import { visitCity } from './016-visit-city.js';
import { uniqueVisitors } from './017-unique-visitors.js';
import { linkShares } from './018-link-shares.js';
import { linkTags } from './019-link-tags.js';
import { linkRedirectStatus } from './020-link-redirect-status.js';
import { linkOptions } from './021-link-options.js';
import { visitDestination } from './022-visit-destination.js';
import { apiKeyScopes } from './023-api-key-scopes.js';
import { userIdentities } from './024-user-identities.js';
import { webhooks } from './025-webhooks.js';
import { customDomains } from './026-custom-domains.js';
import type { MigrationDb } from './schema-builders.js';

/**
 * Numbered migrations, one per file, kept in code so they ship inside the build. Each is written
 * once for both databases; a dialect difference is spelled inside the migration that has it.
 * The keys are the names recorded in `kysely_migration`: an existing database knows its
 * migrations by them, so a key never changes once released (Kysely applies them in key order).
 */
export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '001_initial_schema': initialSchema(dialect),
    '002_reaper_indexes': reaperIndexes,
    '003_default_domain_key': defaultDomainKey,
    '004_client_side_route_fragments': clientSideRouteFragments,
    '005_lean_link_indexes': leanLinkIndexes,
    '006_analytics': analytics,
    '007_cleanup_visits_and_check_order': cleanupVisitsAndCheckOrder(dialect),
    '008_visit_ranges': visitRanges,
    '009_visit_facts': visitFacts(dialect),
    '010_analytics_bounds': analyticsBounds,
    '011_breakdown_order': breakdownOrder(dialect),
    '012_link_changes': linkChanges(dialect),
    '013_session_epoch': sessionEpoch,
    '014_operator_controls': operatorControls(dialect),
    '015_visit_country': visitCountry(dialect),
    '016_visit_city': visitCity(dialect),
    '017_unique_visitors': uniqueVisitors(dialect),
    '018_link_shares': linkShares(dialect),
    '019_link_tags': linkTags(dialect),
    '020_link_redirect_status': linkRedirectStatus(dialect),
    '021_link_options': linkOptions(dialect),
    '022_visit_destination': visitDestination(dialect),
    '023_api_key_scopes': apiKeyScopes,
    '024_user_identities': userIdentities(dialect),
    '025_webhooks': webhooks(dialect),
    '026_custom_domains': customDomains(dialect),
  };
}

/** Applies every pending migration; Kysely's migration lock makes concurrent runs safe. */
export async function migrateToLatest(db: MigrationDb, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(dialect) } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
