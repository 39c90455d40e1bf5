import type { Clock } from '@lectern/core';

/** A clock that stands still until told to move, so tests can cross days in milliseconds. */
export interface TestClock extends Clock {
  advance(ms: number): void;
  set(at: Date): void;
}

export function createTestClock(start = new Date('2026-01-01T00:00:00Z')): TestClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms;
    },
    set(at) {
      now = at.getTime();
    },
  };
}
