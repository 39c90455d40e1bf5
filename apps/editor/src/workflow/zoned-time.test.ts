import { describe, expect, it } from 'vitest';
import { zonedToInstant } from './zoned-time.ts';

describe('zonedToInstant', () => {
  it('reads a wall time in the zone it names, across daylight saving', () => {
    expect(zonedToInstant('2026-12-01', '09:30', 'Europe/Prague')).toBe('2026-12-01T08:30:00.000Z');
    expect(zonedToInstant('2026-07-01', '09:30', 'Europe/Prague')).toBe('2026-07-01T07:30:00.000Z');
    expect(zonedToInstant('2026-07-01', '09:30', 'America/New_York')).toBe('2026-07-01T13:30:00.000Z');
    expect(zonedToInstant('2026-03-08', '12:00', 'America/New_York')).toBe('2026-03-08T16:00:00.000Z');
    expect(zonedToInstant('2026-01-15', '00:00', 'Asia/Kolkata')).toBe('2026-01-14T18:30:00.000Z');
    expect(zonedToInstant('2026-01-15', '23:45', 'UTC')).toBe('2026-01-15T23:45:00.000Z');
  });
});
