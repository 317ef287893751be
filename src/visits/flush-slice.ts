/**
 * The longest a flush's work on the thread that answers redirects (classifying, hashing visitor
 * ids, cutting into parts) runs before it lets the event loop answer what waits. A flush of
 * 50,000 cache hits takes that thread 5–10 ms in all; cut into 4 ms turns, it put the analytics'
 * cost on the hits' p99 (about 6 ms, against 2–3 ms with analytics off); in 1 ms turns, about 4.5 ms
 * (docs/adr/0013-analytics-recording.md, "Classification off the redirect's way").
 */
export const FLUSH_SLICE_MS = 1;
