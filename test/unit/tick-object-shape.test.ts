import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keepTickObjectShape, keptTickObject } from '../../src/tick-object-shape.js';

const PROBE = path.join(import.meta.dirname, '..', 'support', 'tick-shape-probe.mjs');

/** The feedback states V8 reports for the tick object literal's property definitions. */
function literalFeedback(keep: boolean): string[] {
  // V8 prints into a file: into a pipe its writes can be cut short (the pipe is non-blocking).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-tick-shape-'));
  const output = path.join(dir, 'stdout');
  const fd = fs.openSync(output, 'w');
  try {
    // Without concurrent recompilation: a background compile of process.nextTick in flight during the
    // collections holds the hidden classes alive, and the control then fails to reproduce about one
    // run in six. An idle process has no compile in flight, so this is the case the probe stands for.
    const flags = ['--no-concurrent-recompilation', '--import', 'tsx', '--expose-gc', '--allow-natives-syntax'];
    const probe = spawnSync(process.execPath, [...flags, PROBE, ...(keep ? ['keep'] : [])],
      { encoding: 'utf8', stdio: ['ignore', fd, 'pipe'] });
    assert.equal(probe.status, 0, probe.stderr);
    return [...fs.readFileSync(output, 'utf8').matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1] ?? '');
  } finally {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('after an idle full collection, tick objects stay optimizable only when one is kept', () => {
  // Without it V8 forgets the hidden classes and gives up on the literal for good (the control shows
  // the probe still reproduces that on this Node; docs/adr/0037-tick-object-shape.md).
  const lost = literalFeedback(false);
  assert.ok(lost.includes('MEGAMORPHIC'), `the probe no longer reproduces the lost hidden classes: ${lost.join(', ')}`);
  const kept = literalFeedback(true);
  assert.ok(kept.length > 0 && kept.every((state) => state === 'MONOMORPHIC'), kept.join(', '));
});

test('the kept tick object is one of Node\'s, kept once', () => {
  keepTickObjectShape();
  const first = keptTickObject();
  keepTickObjectShape();
  assert.equal(typeof (first as { callback?: unknown } | undefined)?.callback, 'function');
  assert.equal(keptTickObject(), first);
});
