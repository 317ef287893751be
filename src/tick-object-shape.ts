import { createHook } from 'node:async_hooks';

let kept: object | undefined;

/**
 * Keeps one of Node's `process.nextTick` tick objects alive for the life of the process, so that V8
 * never forgets the hidden classes those objects share. A cache hit schedules about nine ticks; when
 * V8 meets a second chain of hidden classes for the tick object's literal, it gives up optimizing it
 * for good, and every tick after that goes through V8's runtime: about 14 % of a cache hit's CPU, in
 * some processes and not others (docs/adr/0037-tick-object-shape.md). Called once, first thing at
 * start-up: an async hook, enabled for one tick and disabled again, is the only way to reach one.
 */
export function keepTickObjectShape(): void {
  if (kept) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept ??= resource;
    },
  }).enable();
  try {
    process.nextTick(() => undefined);
  } finally {
    hook.disable();
  }
}

/** The tick object kept, if any (for the tests). */
export function keptTickObject(): object | undefined {
  return kept;
}
