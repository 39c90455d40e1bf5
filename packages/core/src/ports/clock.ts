/** The one source of "now". Every time-dependent rule reads it, so tests can move days in milliseconds. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
