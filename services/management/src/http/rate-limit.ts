import type { NextFunction, Request, Response } from 'express';
import type { CoreDeps } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import { locals } from './context.ts';

/** Requests allowed per key and window (SPEC 8): 10 per second, 400 per minute, 15,000 per hour. */
export interface RateLimits {
  readonly perSecond: number;
  readonly perMinute: number;
  readonly perHour: number;
}

export const defaultRateLimits: RateLimits = { perSecond: 10, perMinute: 400, perHour: 15_000 };
/** `limits` with every window `factor` times as large (an unlimited window stays unlimited). */
export function scaledRateLimits(limits: RateLimits, factor: number): RateLimits {
  return {
    perSecond: limits.perSecond * factor,
    perMinute: limits.perMinute * factor,
    perHour: limits.perHour * factor,
  };
}

const windows = [1_000, 60_000, 3_600_000] as const;

/**
 * Counts each request of a management key (or of a person signed in to the editor) in fixed windows kept in the store, so every server
 * process sharing the database enforces one limit. Over any window: 429 with Retry-After (seconds
 * until that window ends) and error_code 10000 (SPEC 7.1).
 */
export function rateLimit(core: CoreDeps, limits: RateLimits) {
  // Only the windows with a limit are counted: a window set to 0 (off, an infinite limit) costs no
  // write, and with every window off a request touches no counter at all. Counting them anyway
  // made every request of a key update the key's counter rows, so its concurrent requests queued
  // on those row locks on PostgreSQL (issue 35).
  const counted = [
    [windows[0], limits.perSecond],
    [windows[1], limits.perMinute],
    [windows[2], limits.perHour],
  ].filter(([, limit]) => Number.isFinite(limit)) as [number, number][];
  const countedWindows = counted.map(([ms]) => ms);
  const max = counted.map(([, limit]) => limit);
  let lastPurge = 0;
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (counted.length === 0) return next();
    const actor = locals(res).actor;
    // A key's budget is the key's; a signed-in person's is the person's, across their projects.
    const holder = actor?.type === 'api_key' ? actor.keyId : actor?.type === 'person' ? actor.userId : null;
    if (holder === null) return next();
    const now = core.clock.now();
    const counts = await core.store.transaction(async (tx) => {
      if (now.getTime() - lastPurge > 60_000) {
        lastPurge = now.getTime();
        await tx.rateLimits.purge(new Date(now.getTime() - windows[2]));
      }
      return tx.rateLimits.hit(holder, countedWindows, now);
    });
    const over = countedWindows.findIndex((_, i) => (counts[i] ?? 0) > (max[i] ?? Infinity));
    if (over >= 0) {
      const ms = countedWindows[over] as number;
      throw new LecternError('RATE_LIMITED', { retryAfterSeconds: (ms - (now.getTime() % ms)) / 1000 });
    }
    next();
  };
}
