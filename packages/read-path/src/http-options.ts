import type { RateWindow } from './rate-limiter.ts';

/** Tunables of the Delivery HTTP layer; every field has a default (SPEC 8, DESIGN read path). */
export interface DeliveryHttpOptions {
  /** Uncached requests per project and channel (SPEC 8: 100 per second, 2,000 per minute). */
  readonly rateLimits?: readonly RateWindow[];
  /**
   * Count uncached requests in the store, so every replica on one database shares the limits (the
   * cluster); otherwise in this process's memory (embedded).
   */
  readonly isRateLimitShared?: boolean;
  /** Longest wait for `X-KC-Wait-For-Loading-New-Content: true`, in milliseconds. */
  readonly waitTimeoutMs?: number;
  /**
   * How old a held index watermark or latest committed sequence may get before a request re-reads
   * it in the background, in ms: the staleness bound when change signals are lost.
   */
  readonly freshnessTtlMs?: number;
  /** How long an authentication outcome is reused when no `access` signal drops it sooner, in ms. */
  readonly authTtlMs?: number;
  /** Response cache bounds: entries and total body characters. */
  readonly cacheMaxEntries?: number;
  readonly cacheMaxBytes?: number;
  /** Items per `/items-feed` and used-in page (each page also ≤ 2,000 items with components). */
  readonly feedPageSize?: number;
  /** `s-maxage` of public production answers, in seconds: how long a CDN may reuse one unasked. */
  readonly cdnMaxAgeSeconds?: number;
}

export type ResolvedHttpOptions = Required<DeliveryHttpOptions>;

export const httpDefaults: ResolvedHttpOptions = Object.freeze({
  rateLimits: Object.freeze([
    { max: 100, seconds: 1 },
    { max: 2_000, seconds: 60 },
  ]),
  isRateLimitShared: false,
  waitTimeoutMs: 10_000, // 10 s
  freshnessTtlMs: 250, // 0.25 s
  authTtlMs: 5_000, // 5 s (SPEC 3.3: a regenerated key may work for up to a couple of minutes)
  cacheMaxEntries: 5_000,
  cacheMaxBytes: 256 * 1024 * 1024, // 256 MiB of JSON text
  feedPageSize: 1_000,
  cdnMaxAgeSeconds: 1,
});

export function resolveHttpOptions(options: DeliveryHttpOptions | undefined): ResolvedHttpOptions {
  return Object.freeze({ ...httpDefaults, ...options });
}
