/**
 * What counting costs the redirect responder, in-process (issue 11; complements the metrics on/off
 * row of bench/redirect.ts, whose req/s swing by tens of percent when other work shares the
 * machine). Two responders over the same in-process cache of BENCH_HOT links answer cache hits
 * on stub sockets: one with the metrics port (PrometheusMetrics: the redirect tally and the memory
 * tier's lookup counts), one without. BENCH_COUNTING_ROUNDS rounds of BENCH_COUNTING_CALLS answers
 * each, alternating which goes first; prints the median ns per answer of each, their difference,
 * and that difference as a share of BENCH_FULL_PATH_US (the app's server CPU per response from
 * bench/redirect.ts, default 30 µs).
 *
 *   npx tsx bench/redirect-counting.ts
 *   BENCH_ANALYTICS=false npx tsx bench/redirect-counting.ts     (no visit recording: the responder then times answers for the metrics alone)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MemoryLinkCache } from '../src/cache/memory-link-cache.js';
import { DEFAULT_DOMAIN } from '../src/core/link.js';
import { systemClock } from '../src/core/ports.js';
import type { LinkStore } from '../src/core/ports.js';
import { VisitBuffer } from '../src/visits/visit-buffer.js';
import { RedirectResponder } from '../src/http/redirect-responder.js';
import { LinkResolver } from '../src/links/resolve-link.js';
import { PrometheusMetrics } from '../src/metrics/prometheus-metrics.js';
import { median } from './support/run-facts.js';
import { envBool, envInt, loadAverage } from './support/env.js';

const ROUNDS = envInt('BENCH_COUNTING_ROUNDS', 11, 1);
const CALLS = envInt('BENCH_COUNTING_CALLS', 200_000, 1_000);
const HOT = envInt('BENCH_HOT', 1_000, 1);
const FULL_PATH_US = Number(process.env.BENCH_FULL_PATH_US ?? 30);
const ANALYTICS = envBool('BENCH_ANALYTICS', true);
const TARGET = 0.03;

const codes = Array.from({ length: HOT }, (_, i) => `hot${i.toString(36).padStart(4, '0')}`);
const noStore = { findRedirectTarget: () => undefined } as unknown as LinkStore;

type Measured = RedirectResponder & { drain(): void };

function responder(withMetrics: boolean): Measured {
  const local = new MemoryLinkCache({ maxEntries: HOT * 2, maxBytes: 1024 ** 3, linkTtlMs: 3_600_000, tombstoneTtlMs: 3_600_000, negativeTtlMs: 60_000, clock: systemClock });
  codes.forEach((code, i) => local.remember(DEFAULT_DOMAIN, code, { url: `https://example.com/${code}`, expiresAt: null, status: 'ACTIVE', linkId: i + 1, permanent: true }, systemClock.now()));
  const metrics = withMetrics ? new PrometheusMetrics({ clock: systemClock }) : undefined;
  // A buffer as large as the run, emptied between rounds, so that recording costs the same in both.
  const buffer = ANALYTICS ? new VisitBuffer(CALLS * 2, () => systemClock.now()) : undefined;
  const answering = new RedirectResponder({
    resolver: new LinkResolver({ store: noStore, local, clock: systemClock, metrics }),
    domain: DEFAULT_DOMAIN, clock: systemClock, permanentStatus: 301, temporaryStatus: 302, maxAgeSeconds: 300,
    recordVisit: buffer?.record, metrics: metrics?.redirects,
  });
  const drain = () => { if (buffer) buffer.release(buffer.take().size); };
  return Object.assign(answering, { drain });
}

/** Stand-ins for node:http's request and response: the responder reads headers and writes one head. */
const req = { method: 'GET', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0', referer: 'https://news.example/' } } as unknown as IncomingMessage;
const res = { writeHead: () => res, end: () => res, setHeader: () => res, getHeader: () => undefined } as unknown as ServerResponse;

function round(target: Measured): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) target.respond(codes[i % HOT]!, req, res);
  const ns = Number(process.hrtime.bigint() - started) / CALLS;
  target.drain();
  return ns;
}

const on = responder(true);
const off = responder(false);
for (let i = 0; i < 3; i++) { round(on); round(off); } // warm-up: both paths optimised before measuring
const times = { on: [] as number[], off: [] as number[] };
for (let r = 0; r < ROUNDS; r++) {
  if (r % 2 === 0) { times.on.push(round(on)); times.off.push(round(off)); } else { times.off.push(round(off)); times.on.push(round(on)); }
}
const [onNs, offNs] = [median(times.on), median(times.off)];
const deltaNs = onNs - offNs;
const share = deltaNs / (FULL_PATH_US * 1000);
console.log(`redirect counting, in-process · node ${process.version} · analytics ${ANALYTICS ? 'on' : 'off'} · ${ROUNDS} rounds × ${CALLS.toLocaleString('en')} cache hits (${HOT} codes), alternating · load average ${loadAverage()}`);
console.log(`responder, metrics on     ${onNs.toFixed(0).padStart(6)} ns/answer  (rounds ${times.on.map((t) => t.toFixed(0)).join(' ')})`);
console.log(`responder, metrics off    ${offNs.toFixed(0).padStart(6)} ns/answer  (rounds ${times.off.map((t) => t.toFixed(0)).join(' ')})`);
console.log(`counting costs            ${deltaNs.toFixed(0).padStart(6)} ns/answer  (${((onNs / offNs - 1) * 100).toFixed(1)} % of the responder alone)`);
console.log(`share of a full redirect  ${(share * 100).toFixed(2).padStart(6)} %        (of ${FULL_PATH_US} µs server CPU per response; target < ${TARGET * 100} %: ${share < TARGET ? 'PASS' : 'MISS'})`);
