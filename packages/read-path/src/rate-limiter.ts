import { createHash } from 'node:crypto';
import type { CoreDeps } from '@lectern/core';

/** One window of a rate limit: at most `max` requests per `seconds`. */
export interface RateWindow {
  readonly max: number;
  readonly seconds: number;
}

/**
 * Fixed-window counters per project, in this process's memory (SPEC 8: uncached Delivery requests,
 * 100/s and 2,000/min per project): the embedded shape's limiter, where one process serves every
 * request. Replicas share `storeLimiter` instead.
 */
export class RateLimiter {
  readonly #counters = new Map<string, { start: number; count: number }>();
  readonly windows: readonly RateWindow[];
  readonly now: () => number;

  constructor(windows: readonly RateWindow[], now: () => number = Date.now) {
    this.windows = windows;
    this.now = now;
  }

  /** Counts one request; returns null when allowed, else the seconds until it would be. */
  take(key: string): number | null {
    const now = this.now();
    let wait = 0;
    const counters = this.windows.map((w) => {
      const id = `${w.seconds}|${key}`;
      const windowStart = Math.floor(now / (w.seconds * 1000)) * w.seconds * 1000;
      let c = this.#counters.get(id);
      if (c === undefined || c.start !== windowStart) {
        c = { start: windowStart, count: 0 };
        this.#counters.set(id, c);
      }
      if (c.count >= w.max) wait = Math.max(wait, (windowStart + w.seconds * 1000 - now) / 1000);
      return c;
    });
    if (wait > 0) return wait;
    for (const c of counters) c.count += 1;
    if (this.#counters.size > 100_000) this.#sweep(now);
    return null;
  }

  #sweep(now: number): void {
    for (const [id, c] of this.#counters) {
      const seconds = Number(id.slice(0, id.indexOf('|')));
      if (c.start + seconds * 1000 <= now) this.#counters.delete(id);
    }
  }
}

/** Counts an uncached request of a key; null when allowed, else the seconds until it would be. */
export interface UncachedLimiter {
  take(key: string): Promise<number | null>;
}

/** The limiter of one process (embedded: every Delivery request of the project passes here). */
export function memoryLimiter(windows: readonly RateWindow[]): UncachedLimiter {
  const limiter = new RateLimiter(windows);
  return { take: (key) => Promise.resolve(limiter.take(key)) };
}

/** A counter id in the store's uuid key space for a Delivery limit key. */
function counterId(key: string): string {
  const hex = createHash('sha256').update(`delivery-rate:${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The limiter of the cluster: fixed-window counters in the store (as Management's per-key limits),
 * so any number of Delivery replicas on one database enforce one limit per project and channel.
 * Costs one write per uncached request; cached answers are never counted.
 */
export function storeLimiter(core: CoreDeps, windows: readonly RateWindow[]): UncachedLimiter {
  const lengths = windows.map((w) => w.seconds * 1000);
  const longest = Math.max(0, ...lengths);
  let lastPurge = 0;
  return {
    async take(key) {
      if (windows.length === 0) return null;
      const now = core.clock.now();
      const counts = await core.store.transaction(async (tx) => {
        if (now.getTime() - lastPurge > 60_000) {
          lastPurge = now.getTime();
          await tx.rateLimits.purge(new Date(now.getTime() - longest));
        }
        return tx.rateLimits.hit(counterId(key), lengths, now);
      });
      let wait = 0;
      windows.forEach((w, i) => {
        const ms = lengths[i] ?? 0;
        if ((counts[i] ?? 0) > w.max) wait = Math.max(wait, (ms - (now.getTime() % ms)) / 1000);
      });
      return wait > 0 ? wait : null;
    },
  };
}
