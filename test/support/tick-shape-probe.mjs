// Run by test/unit/tick-object-shape.test.ts as
//   node --no-concurrent-recompilation --import tsx --expose-gc --allow-natives-syntax \
//     test/support/tick-shape-probe.mjs [keep]
// Schedules ticks until V8 has optimization feedback for the tick object's literal, lets full
// collections run as the memory reducer runs them when a process goes idle (which let the hidden
// classes of tick objects die), schedules one more tick, and prints V8's description of
// process.nextTick: its feedback says whether the literal's property definitions are still
// monomorphic (optimizable) or megamorphic (through V8's runtime for good). With `keep`, calls
// keepTickObjectShape first, as main.ts does.
const drain = () => new Promise((resolve) => setImmediate(resolve));

if (process.argv[2] === 'keep') (await import('../../src/tick-object-shape.ts')).keepTickObjectShape();
for (let round = 0; round < 50; round++) {
  for (let i = 0; i < 100; i++) process.nextTick(() => undefined);
  await drain();
}
for (let i = 0; i < 6; i++) {
  %NotifyContextDisposed(); // the next collection reduces memory, as the memory reducer's do
  globalThis.gc();
}
process.nextTick(() => undefined);
await drain();
%DebugPrint(process.nextTick);
