import { createHash } from 'node:crypto';
import type { CoreDeps } from '@lectern/core';

/** At most `units` resource units per `seconds` (SPEC 8: GraphQL rate by resource consumption). */
export interface UnitWindow {
  readonly units: number;
  readonly seconds: number;
}

/**
 * Resource consumption of uncached GraphQL requests per project: a request may run while every
 * window still has units left, and then spends what it read (one unit plus one per item and
 * component). Over a window's budget the next requests wait until it ends (429 + Retry-After).
 * Cached answers are neither checked nor counted.
 */
export interface ConsumptionLimiter {
  /** Null when a request may run now, else the seconds until it may. */
  check(key: string): Promise<number | null>;
  spend(key: string, units: number): Promise<void>;
}

const waitOf = (windows: readonly UnitWindow[], counts: readonly number[], nowMs: number): number | null => {
  let wait = 0;
  windows.forEach((w, i) => {
    const ms = w.seconds * 1000;
    if ((counts[i] ?? 0) >= w.units) wait = Math.max(wait, (ms - (nowMs % ms)) / 1000);
  });
  return wait > 0 ? Math.ceil(wait) : null;
};

/** In this process's memory: the embedded shape, where one process serves every request. */
export function memoryConsumptionLimiter(
  windows: readonly UnitWindow[],
  now: () => number = Date.now,
): ConsumptionLimiter {
  const counters = new Map<string, { start: number; units: number }>();
  const counts = (key: string, nowMs: number) =>
    windows.map((w) => {
      const ms = w.seconds * 1000;
      const id = `${w.seconds}|${key}`;
      let c = counters.get(id);
      if (c === undefined || c.start !== nowMs - (nowMs % ms)) {
        c = { start: nowMs - (nowMs % ms), units: 0 };
        counters.set(id, c);
      }
      return c;
    });
  return {
    check: async (key) => {
      const t = now();
      return waitOf(
        windows,
        counts(key, t).map((c) => c.units),
        t,
      );
    },
    spend: async (key, units) => {
      for (const c of counts(key, now())) c.units += units;
      if (counters.size > 100_000) counters.clear();
    },
  };
}

function counterId(key: string): string {
  const hex = createHash('sha256').update(`graphql-units:${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * In the store (the cluster): every replica on one database spends from the same budget, as the
 * Management and Delivery limits are shared. Two small writes per uncached request.
 */
export function storeConsumptionLimiter(core: CoreDeps, windows: readonly UnitWindow[]): ConsumptionLimiter {
  const lengths = windows.map((w) => w.seconds * 1000);
  const longest = Math.max(0, ...lengths);
  let lastPurge = 0;
  const hit = (key: string, amount: number) => {
    const now = core.clock.now();
    return core.store
      .transaction(async (tx) => {
        if (now.getTime() - lastPurge > 60_000) {
          lastPurge = now.getTime();
          await tx.rateLimits.purge(new Date(now.getTime() - longest));
        }
        return tx.rateLimits.hit(counterId(key), lengths, now, amount);
      })
      .then((counts) => ({ counts, nowMs: now.getTime() }));
  };
  return {
    async check(key) {
      if (windows.length === 0) return null;
      const { counts, nowMs } = await hit(key, 0);
      return waitOf(windows, counts, nowMs);
    },
    async spend(key, units) {
      if (windows.length > 0) await hit(key, units);
    },
  };
}
