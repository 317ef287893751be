/**
 * A batch's columns on shared memory. A batch is posted to the SQLite writer thread, and a
 * posted typed array is copied twice (serialized here, deserialized there) unless its memory is a
 * SharedArrayBuffer, which is handed over as it is: a part of 50,000 visits cost the thread that
 * answers redirects about 0.4 ms to post, with spikes of 5 ms, and costs it next to nothing on
 * shared memory (docs/adr/0016-analytics-flush-on-the-writer-thread.md, "Batches on shared memory").
 * A batch is never written to once made, so sharing it is safe; a part that failed is posted
 * again as it was.
 */
export function sharedFloat64(size: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(size * Float64Array.BYTES_PER_ELEMENT));
}

export function sharedUint32(size: number): Uint32Array {
  return new Uint32Array(new SharedArrayBuffer(size * Uint32Array.BYTES_PER_ELEMENT));
}

/** A shared copy of the first `size` values of `column`. */
export function sharedCopy(column: Float64Array, size: number): Float64Array {
  const copy = sharedFloat64(size);
  copy.set(column.subarray(0, size));
  return copy;
}
