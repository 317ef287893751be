import type { VisitBatch, VisitStatements } from '../../core/visit-ports.js';
import { visitsByLink } from '../../core/visit-batch.js';
import { rollUp, type BatchRollups } from '../../core/visit-rollups.js';
import { foldedBatch, linkDaysOf, rowsThatMayFold } from '../../core/breakdown-folding.js';
import { visitorSightings } from '../../core/visitor-sightings.js';
import { lastUsedOf } from './visit-facts.js';

/**
 * The one order in which a batch of visits is written, whatever the database (ADR 0016). The
 * caller holds the transaction; `statements` is the database's own way to run each step
 * (kysely-visit-statements.ts, writer-thread-visit-statements.ts).
 *
 * The global row first and with every visit: on PostgreSQL its row lock also makes the flushes
 * of several instances wait for each other, so their link updates cannot deadlock. Then each
 * link's counters, and the rest only for links whose row still exists: a link purged since its
 * redirect is skipped; a soft-deleted one still has its row and keeps the clicks it had while live.
 */
export async function recordVisits(statements: VisitStatements, batch: VisitBatch): Promise<void> {
  if (batch.size === 0) return;
  const rollups = rollUp(batch);
  await statements.addToGlobal(rollups.total);
  const clicksAfter = await statements.addToLinks(rollups.perLink);
  await appendVisits(statements, batch, clicksAfter, rollups);
}

/**
 * The visit rows of the links in `existing`, their ranges, and their hourly and daily roll-ups,
 * without touching a counter: a flush's second half, and all an import writes (the links it
 * creates carry their counters). Values past a link day's cap fold into one (core/breakdown-folding.ts,
 * ADR 0021); the stored values are read after the counters' UPDATEs, so a flush of another
 * instance that committed first is read whole and two flushes do not both take the last places,
 * and only for the links whose count after the batch may pass the cap: a flush gives `existing`
 * as a map of those counts; an import's set of links knows none, and each of its days is read.
 * Each link's rows are appended one after the other, so one visit range covers them.
 */
export async function appendVisits(
  statements: VisitStatements, batch: VisitBatch, existing: ReadonlySet<number> | ReadonlyMap<number, number>, rollups: BatchRollups = rollUp(batch),
): Promise<void> {
  const kept = <T extends { linkId: number }>(rows: readonly T[]) => rows.filter((row) => existing.has(row.linkId));
  const daily = kept(rollups.daily);
  const mayFold = rowsThatMayFold(daily, existing instanceof Map ? existing : undefined);
  const written = foldedBatch(batch, mayFold, await statements.storedDayValues(linkDaysOf(mayFold)));
  const { order } = visitsByLink(written, existing);
  if (order.length > 0) {
    const factsIds = await statements.factsIds(written.facts, lastUsedOf(written, order));
    await statements.appendRanges(await statements.appendVisits(written, order, factsIds));
  }
  await statements.appendHourly(kept(rollups.hourly));
  await statements.appendDaily(written === batch ? daily : kept(rollUp(written).daily));
  await statements.appendVisitors(kept(visitorSightings(batch)));
}
