import {
  createCachedAuthenticator,
  createSeqTracker,
  parseSeqSignal,
  type CachedAuthenticator,
  type CoreDeps,
  type DeliveryChannel,
  type DeliveryIndexReader,
  type IndexedLanguage,
  type SeqTracker,
  type Signals,
  type TypeElements,
  type TypeLinks,
} from '@lectern/core';
import { resolveHttpOptions, type DeliveryHttpOptions, type ResolvedHttpOptions } from './http-options.ts';
import { memoryLimiter, storeLimiter, type UncachedLimiter } from './rate-limiter.ts';
import { ResponseCache } from './response-cache.ts';

/** The model documents of a project at one watermark, read once. */
export interface ModelAt {
  types(): Promise<Record<string, unknown>[]>;
  /** Each type's element kinds (the index's planning hint). */
  typeElements(): Promise<TypeElements>;
  /** Restricted elements' allowed types (GraphQL's unions; `{}` when the index records none). */
  typeLinks(): Promise<TypeLinks>;
  taxonomies(): Promise<Record<string, unknown>[]>;
  languages(): Promise<IndexedLanguage[]>;
}

/** What every Delivery and GraphQL route handler shares: one per listener (API and channel). */
export interface DeliveryContext {
  readonly channel: DeliveryChannel;
  readonly core: CoreDeps;
  readonly index: DeliveryIndexReader | null;
  readonly options: ResolvedHttpOptions;
  readonly cache: ResponseCache;
  readonly limiter: UncachedLimiter;
  readonly auth: CachedAuthenticator;
  /** Each project's index watermark, held in memory (advanced by `indexed` signals). */
  readonly indexed: SeqTracker;
  /** Each project's latest committed sequence, held in memory (advanced by `committed` signals). */
  readonly committed: SeqTracker;
  /** The project's model documents at a watermark (cached per watermark). */
  modelAt(projectId: string, watermark: number): ModelAt;
  /** Subscribes to the signals that keep the held values fresh; resolves with the unsubscriber. */
  listen(): Promise<() => Promise<void>>;
}

/** Type codename → element codename → element kind, from the Delivery JSON of the types. */
function typeElementsOf(types: readonly Record<string, unknown>[]): TypeElements {
  const out: Record<string, Record<string, string>> = {};
  for (const type of types) {
    const codename = (type['system'] as { codename?: unknown } | undefined)?.codename;
    if (typeof codename !== 'string') continue;
    const elements = (type['elements'] ?? {}) as Record<string, { type?: unknown }>;
    out[codename] = Object.fromEntries(Object.entries(elements).map(([k, e]) => [k, String(e.type)]));
  }
  return out;
}

/** Watermarks whose model documents are kept. */
const maxModels = 1_000;

export function createDeliveryContext(input: {
  channel: DeliveryChannel;
  core: CoreDeps;
  index: DeliveryIndexReader | null;
  http?: DeliveryHttpOptions;
  /** Cross-process change signals; without them held values refresh every `freshnessTtlMs`. */
  signals?: Signals;
}): DeliveryContext {
  const options = resolveHttpOptions(input.http);
  const { index } = input;
  const indexed = createSeqTracker({
    read: (projectId) => (index === null ? Promise.resolve(0) : index.watermark(projectId)),
    maxStalenessMs: options.freshnessTtlMs,
  });
  const committed = createSeqTracker({
    read: (projectId) => input.core.store.transaction((tx) => tx.outbox.latestSeq(projectId)),
    maxStalenessMs: options.freshnessTtlMs,
  });
  const auth = createCachedAuthenticator(input.core, { ttlMs: options.authTtlMs });
  const models = new Map<string, ModelAt>();
  /** Reads once and keeps the answer (a failed read is tried again next time). */
  const once = <T>(read: () => Promise<T>) => {
    let value: Promise<T> | null = null;
    return () => {
      if (value === null) {
        const pending = read();
        value = pending;
        pending.catch(() => {
          if (value === pending) value = null;
        });
      }
      return value;
    };
  };
  return {
    channel: input.channel,
    core: input.core,
    index,
    options,
    cache: new ResponseCache({ maxEntries: options.cacheMaxEntries, maxBytes: options.cacheMaxBytes }),
    limiter: options.isRateLimitShared
      ? storeLimiter(input.core, options.rateLimits)
      : memoryLimiter(options.rateLimits),
    auth,
    indexed,
    committed,
    modelAt(projectId, watermark) {
      const key = `${projectId}\u0000${watermark}`;
      let model = models.get(key);
      if (model === undefined && index !== null) {
        const types = once(() => index.types(projectId));
        model = {
          types,
          typeElements: once(async () => typeElementsOf(await types())),
          typeLinks: once(async () => (await index.typeLinks?.(projectId)) ?? {}),
          taxonomies: once(() => index.taxonomies(projectId)),
          languages: once(() => index.languages(projectId)),
        };
        models.set(key, model);
        if (models.size > maxModels) models.delete(models.keys().next().value ?? key);
      }
      return (
        model ?? {
          types: async () => [],
          typeElements: async () => ({}),
          typeLinks: async () => ({}),
          taxonomies: async () => [],
          languages: async () => [],
        }
      );
    },
    async listen() {
      const signals = input.signals;
      if (signals === undefined) return async () => undefined;
      const onSeq = (tracker: SeqTracker) => (payload: string) => {
        const signal = parseSeqSignal(payload);
        if (signal !== null) tracker.advance(signal.projectId, signal.seq);
      };
      const stops = [
        await signals.subscribe({ topic: 'indexed', listener: onSeq(indexed), onReset: () => indexed.invalidate() }),
        await signals.subscribe({
          topic: 'committed',
          listener: onSeq(committed),
          onReset: () => committed.invalidate(),
        }),
        await signals.subscribe({
          topic: 'access',
          listener: (projectId) => auth.forget(projectId),
          onReset: () => auth.forget(null),
        }),
      ];
      return async () => {
        for (const stop of stops) await stop();
      };
    },
  };
}
