/** One window of a rate limit: at most `max` requests per `seconds`. */
export interface RateWindow {
  readonly max: number;
  readonly seconds: number;
}

/**
 * Fixed-window counters per project, in this process's memory (SPEC 8: uncached Delivery requests,
 * 100/s and 2,000/min per project). With several replicas each enforces the limit on its own
 * share of traffic; Delivery is stateless and the CDN absorbs cached traffic, so an exact
 * cluster-wide count is not worth a round trip on every request.
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
