import { z } from 'zod';
import { port, sharedSettings, wholeNumber, type ConfigOf, type Setting } from '@lectern/config';
import { deliveryIndexSettings } from '@lectern/engines';
import type { DeliveryHttpOptions } from './http/register-routes.ts';

/**
 * The limits of the Delivery and Delivery Preview APIs (SPEC 8 defaults). `lectern start` and the
 * cluster's Delivery service read the same names. Each listener (Delivery, Preview) has its own
 * counters and its own response cache.
 */
export const deliveryLimitSettings = {
  /** Uncached requests per project and API per second (cache hits never count). 0: no limit. */
  deliveryUncachedPerSecond: {
    env: 'LECTERN_DELIVERY_UNCACHED_PER_SECOND',
    schema: wholeNumber({ min: 0, max: 1_000_000_000 }),
    default: '100',
    doc: 'Uncached Delivery requests a project may make per second (per API), then 429 with Retry-After; 0: no limit.',
  },
  deliveryUncachedPerMinute: {
    env: 'LECTERN_DELIVERY_UNCACHED_PER_MINUTE',
    schema: wholeNumber({ min: 0, max: 1_000_000_000 }),
    default: '2000',
    doc: 'Uncached Delivery requests a project may make per minute (per API), then 429 with Retry-After; 0: no limit.',
  },
  deliveryWaitTimeoutMs: {
    env: 'LECTERN_DELIVERY_WAIT_TIMEOUT_MS',
    schema: wholeNumber({ min: 0, max: 600_000 }),
    default: '10000',
    doc: 'Longest wait for fresh content under X-KC-Wait-For-Loading-New-Content: true, in milliseconds.',
  },
  deliveryCacheEntries: {
    env: 'LECTERN_DELIVERY_CACHE_ENTRIES',
    schema: wholeNumber({ min: 0, max: 10_000_000 }),
    default: '5000',
    doc: 'Responses the Delivery response cache keeps (per API), least recently used out first; 0: no cache.',
  },
  deliveryCacheMib: {
    env: 'LECTERN_DELIVERY_CACHE_MIB',
    schema: wholeNumber({ min: 0, max: 1_048_576 }),
    default: '256',
    doc: 'Response bodies the Delivery response cache keeps (per API), in MiB of JSON text.',
  },
  deliveryFeedPageSize: {
    env: 'LECTERN_DELIVERY_FEED_PAGE_SIZE',
    schema: wholeNumber({ min: 1, max: 2_000 }),
    default: '1000',
    doc: 'Items per /items-feed and used-in page (1 to 2000).',
  },
  deliveryCdnMaxAgeSeconds: {
    env: 'LECTERN_DELIVERY_CDN_MAX_AGE_SECONDS',
    schema: wholeNumber({ min: 0, max: 31_536_000 }),
    default: '1',
    doc: 'Cache-Control s-maxage of public Delivery answers, in seconds: how long a CDN may reuse one without asking.',
  },
} satisfies Record<string, Setting<unknown>>;

/** The Delivery HTTP options the limit settings describe; a limit of 0 is no window at all. */
export function deliveryHttpOptions(config: ConfigOf<typeof deliveryLimitSettings>): DeliveryHttpOptions {
  const windows = [
    { max: config.deliveryUncachedPerSecond, seconds: 1 },
    { max: config.deliveryUncachedPerMinute, seconds: 60 },
  ];
  return {
    rateLimits: windows.filter((w) => w.max > 0),
    waitTimeoutMs: config.deliveryWaitTimeoutMs,
    cacheMaxEntries: config.deliveryCacheEntries,
    cacheMaxBytes: config.deliveryCacheMib * 1024 * 1024,
    feedPageSize: config.deliveryFeedPageSize,
    cdnMaxAgeSeconds: config.deliveryCdnMaxAgeSeconds,
  };
}

/**
 * The defaults table of the Delivery service in the cluster shape: one process serves the
 * Delivery API and the Delivery Preview API on two ports, reading the delivery index (the search
 * engine by default, or SQL tables in PostgreSQL). Stateless: any number may run at once. Environment only; secrets also as `<NAME>_FILE`.
 */
export const deliverySettings = {
  databaseUrl: sharedSettings.databaseUrl,
  host: sharedSettings.host,
  deliveryPort: {
    env: 'LECTERN_DELIVERY_PORT',
    schema: port,
    default: '4401',
    doc: 'Port of the Delivery API (0: a free one).',
  },
  previewPort: {
    env: 'LECTERN_PREVIEW_PORT',
    schema: port,
    default: '4402',
    doc: 'Port of the Delivery Preview API (0: a free one).',
  },
  poolSize: {
    env: 'LECTERN_DATABASE_POOL_SIZE',
    schema: z.coerce.number().int().min(1).max(500),
    default: '10',
    doc: 'Connections to PostgreSQL held by this process.',
  },
  ...deliveryIndexSettings,
  ...deliveryLimitSettings,
  logLevel: sharedSettings.logLevel,
} satisfies Record<string, Setting<unknown>>;
