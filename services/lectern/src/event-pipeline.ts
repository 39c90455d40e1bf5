import {
  createIndexer,
  createInProcessBus,
  createOutboxRelay,
  createRecsConsumer,
  type CoreDeps,
  type EmbeddingProvider,
  type EventBus,
  type Indexer,
  type RecsIndexWriter,
} from '@lectern/core';
import {
  registerConsumerLag,
  registerIndexerMetrics,
  registerIndexLag,
  registerRelayMetrics,
  type ProcessMetrics,
} from '@lectern/http-kit';
import type { DeliveryIndexReader, DeliveryIndexWriter } from '@lectern/core';
import type { SqlStore } from '@lectern/store-sql';
import { createWebhookService, webhooksGroup, type WebhookWorker } from '@lectern/webhooks';

export interface EventPipeline {
  readonly bus: EventBus;
  readonly indexer: Indexer;
  /** The webhook worker (consumer group `lectern-webhooks`). */
  readonly webhooks: WebhookWorker;
  stop(): Promise<void>;
}

const indexerGroup = 'lectern-indexer';
const recsGroup = 'lectern-recommendations';

/**
 * The embedded shape's change-event path (DESIGN write path 3–4): the outbox relay publishes to
 * the in-process bus, woken by every local commit that appended events, and the indexer consumes
 * it in its consumer group. The indexer first catches up from the outbox (the in-process bus
 * holds nothing across restarts). Relay and consumer lag go to `/metrics` when `metrics` is given.
 */
export async function startEventPipeline(options: {
  core: CoreDeps & { readonly store: SqlStore };
  index: DeliveryIndexReader & DeliveryIndexWriter;
  assetsBase: string;
  metrics?: ProcessMetrics;
  /** Webhook delivery settings (default: the SSRF guard on, 60 s time-out). */
  webhooks?: { isPrivateAllowed: boolean; timeoutMs: number; smtp?: { url: string; from: string } };
  /** The recommendation index, kept by its own consumer group (issue 16). */
  recs?: { writer: RecsIndexWriter; embedder: EmbeddingProvider };
  onError?: (error: unknown, what: string) => void;
}): Promise<EventPipeline> {
  const { core, metrics } = options;
  const { store, clock } = core;
  const bus = createInProcessBus();
  const relayMetrics = metrics ? registerRelayMetrics(metrics, { store, clock }) : null;
  if (metrics) {
    registerConsumerLag(metrics, {
      bus,
      groups: options.recs ? [indexerGroup, webhooksGroup, recsGroup] : [indexerGroup, webhooksGroup],
    });
    registerIndexLag(metrics, { store, index: options.index });
  }
  const indexerMetrics = metrics ? registerIndexerMetrics(metrics) : null;
  const relay = createOutboxRelay({
    store,
    bus,
    clock,
    intervalMs: 1_000,
    onPublished: relayMetrics?.onPublished,
    onError: (error) => options.onError?.(error, 'relaying change events failed'),
  });
  const indexer = createIndexer({
    core,
    index: options.index,
    assetsBase: options.assetsBase,
    bus,
    group: indexerGroup,
    onBatch: indexerMetrics?.onBatch,
    onError: (error) => options.onError?.(error, 'delivery indexing failed'),
  });
  await indexer.start();
  const webhooks = createWebhookService({
    store,
    clock,
    ids: core.ids,
    bus,
    isPrivateAllowed: options.webhooks?.isPrivateAllowed ?? false,
    timeoutMs: options.webhooks?.timeoutMs ?? 60_000,
    ...(options.webhooks?.smtp ? { smtp: options.webhooks.smtp } : {}),
    ...(metrics ? { metrics } : {}),
    onError: (error, what) => options.onError?.(error, what),
  });
  await webhooks.start();
  const recs = options.recs
    ? createRecsConsumer({
        core,
        ...options.recs,
        bus,
        group: recsGroup,
        onError: (error) => options.onError?.(error, 'recommendation indexing failed'),
      })
    : null;
  await recs?.start();
  const stopWaking = store.onEventsCommitted(() => relay.wake());
  relay.start();
  return {
    bus,
    indexer,
    webhooks,
    async stop() {
      stopWaking();
      await relay.stop();
      await indexer.stop();
      await webhooks.stop();
      await recs?.stop();
      await bus.close();
    },
  };
}
