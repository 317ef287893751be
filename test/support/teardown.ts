import { after } from 'node:test';

/**
 * Where a helper hands the teardown of what it made: a test's context (`async (context) => …`),
 * a `beforeEach` hook's (the test's), or a suite's from `suiteScope()`.
 */
export interface TeardownScope {
  after(fn: () => unknown): void;
}

const pending = new WeakMap<TeardownScope, Array<() => unknown>>();

/**
 * Runs every teardown registered on `scope`, last made first closed: node:test runs a context's
 * after hooks in the order they were added, and an app must close before the database it was given
 * is dropped. Every teardown runs even when one fails; the first failure is reported.
 */
async function runLastFirst(teardowns: Array<() => unknown>): Promise<void> {
  let failure: unknown;
  for (let teardown = teardowns.pop(); teardown; teardown = teardowns.pop()) {
    try {
      await teardown();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}

/** Makes `close` run once however often it is called: a test may close early, and the scope closes after it. */
export function once<T>(close: () => Promise<T>): () => Promise<T> {
  let closing: Promise<T> | undefined;
  return () => (closing ??= close());
}

/** Registers `teardown` to run when `scope` ends, before what was registered on it earlier. */
export function onTeardown(scope: TeardownScope, teardown: () => unknown): void {
  let teardowns = pending.get(scope);
  if (!teardowns) {
    const registered: Array<() => unknown> = [];
    teardowns = registered;
    pending.set(scope, registered);
    scope.after(() => runLastFirst(registered));
  }
  teardowns.push(teardown);
}

/**
 * A scope for what a suite's `before` hooks make, closed after the suite's tests. Call it while
 * the suite is defined (inside `describe`, not in a hook): a suite's hooks get no `after` of their own.
 */
export function suiteScope(): TeardownScope {
  const hooks: Array<() => unknown> = [];
  after(async () => {
    for (const hook of hooks) await hook();
  });
  return { after: (fn) => { hooks.push(fn); } };
}
