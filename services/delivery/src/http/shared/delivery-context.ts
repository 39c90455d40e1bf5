import type { CoreDeps, DeliveryChannel, DeliveryIndexReader } from '@lectern/core';
import { resolveHttpOptions, type DeliveryHttpOptions, type ResolvedHttpOptions } from './http-options.ts';
import { RateLimiter } from './rate-limiter.ts';
import { ResponseCache } from './response-cache.ts';

/** What every Delivery route handler shares: one per listener (channel). */
export interface DeliveryContext {
  readonly channel: DeliveryChannel;
  readonly core: CoreDeps;
  readonly index: DeliveryIndexReader | null;
  readonly options: ResolvedHttpOptions;
  readonly cache: ResponseCache;
  readonly limiter: RateLimiter;
  /** The project's latest committed sequence, reused for `freshnessTtlMs`. */
  readonly latestSeq: (projectId: string, isFresh: boolean) => Promise<number>;
}

export function createDeliveryContext(input: {
  channel: DeliveryChannel;
  core: CoreDeps;
  index: DeliveryIndexReader | null;
  http?: DeliveryHttpOptions;
}): DeliveryContext {
  const options = resolveHttpOptions(input.http);
  const seen = new Map<string, { seq: number; at: number }>();
  return {
    channel: input.channel,
    core: input.core,
    index: input.index,
    options,
    cache: new ResponseCache({ maxEntries: options.cacheMaxEntries, maxBytes: options.cacheMaxBytes }),
    limiter: new RateLimiter(options.rateLimits),
    latestSeq: async (projectId, isFresh) => {
      const now = Date.now();
      const hit = seen.get(projectId);
      if (!isFresh && hit !== undefined && now - hit.at < options.freshnessTtlMs) return hit.seq;
      const seq = await input.core.store.transaction((tx) => tx.outbox.latestSeq(projectId));
      if (seen.size > 10_000) seen.clear();
      seen.set(projectId, { seq, at: now });
      return seq;
    },
  };
}
