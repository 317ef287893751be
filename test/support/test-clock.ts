import type { Clock } from '../../src/core/ports.js';

/** A clock the test moves by hand. Starts at a fixed, readable instant. */
export class TestClock implements Clock {
  constructor(private current = Date.parse('2026-01-01T00:00:00Z')) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}
