import { describe, expect, it } from 'vitest';
import { healthAfterAttempt, nextAttemptAt, type HealthState } from './retry-policy.ts';

const minute = 60_000;
const start = new Date('2026-11-24T00:00:00Z');
const at = (ms: number) => new Date(start.getTime() + ms);

describe('nextAttemptAt', () => {
  it('walks 1, 2, 4, 8, 16, 32, 60 minutes, then hourly, and gives up after 3 days', () => {
    const gaps: number[] = [];
    let now = start;
    for (let failed = 1; ; failed++) {
      const next = nextAttemptAt({ failedAttempts: failed, firstAttemptAt: start, now });
      if (next === null) break;
      gaps.push((next.getTime() - now.getTime()) / minute);
      now = next;
    }
    expect(gaps.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(gaps.slice(7).every((g) => g === 60)).toBe(true);
    // The last attempt is within 3 days of the first; one more hour would pass them.
    expect(now.getTime() - start.getTime()).toBeLessThanOrEqual(3 * 24 * 60 * minute);
    expect(now.getTime() + 60 * minute - start.getTime()).toBeGreaterThan(3 * 24 * 60 * minute);
    // 7 growing waits (123 minutes) then hourly up to 72 hours: 7 + 69 retries.
    expect(gaps).toHaveLength(76);
  });
});

describe('healthAfterAttempt', () => {
  const ready: HealthState = { health: 'unknown', failingSince: null, lastAcceptedAt: null };

  it('is working after an accepted attempt and failing after a refused one', () => {
    const working = healthAfterAttempt(ready, { isAccepted: true, at: start });
    expect(working).toEqual({ health: 'working', failingSince: null, lastAcceptedAt: start });
    const failing = healthAfterAttempt(working, { isAccepted: false, at: at(minute) });
    expect(failing).toEqual({ health: 'failing', failingSince: at(minute), lastAcceptedAt: start });
  });

  it('is dead after 7 days of failures with nothing accepted, not a minute earlier', () => {
    let state = healthAfterAttempt(ready, { isAccepted: false, at: start });
    const day = 24 * 60 * minute;
    state = healthAfterAttempt(state, { isAccepted: false, at: at(7 * day - minute) });
    expect(state.health).toBe('failing');
    state = healthAfterAttempt(state, { isAccepted: false, at: at(7 * day) });
    expect(state).toEqual({ health: 'dead', failingSince: start, lastAcceptedAt: null });
  });

  it('starts a new failure streak after an acceptance', () => {
    const day = 24 * 60 * minute;
    let state = healthAfterAttempt(ready, { isAccepted: false, at: start });
    state = healthAfterAttempt(state, { isAccepted: true, at: at(6 * day) });
    state = healthAfterAttempt(state, { isAccepted: false, at: at(8 * day) });
    expect(state).toEqual({ health: 'failing', failingSince: at(8 * day), lastAcceptedAt: at(6 * day) });
  });
});
