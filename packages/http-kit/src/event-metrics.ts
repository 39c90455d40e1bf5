import { Counter, Gauge } from 'prom-client';
import type { Clock, DeliveryIndexReader, EventBus, Store } from '@lectern/core';
import type { ProcessMetrics } from './metrics.ts';

/**
 * Outbox relay metrics, read from the store at scrape time: committed events not yet on the bus
 * (over every project) and the age of the oldest of them. `onPublished` feeds the relay's
 * `onPublished` option.
 */
export function registerRelayMetrics(
  metrics: ProcessMetrics,
  options: { store: Store; clock: Clock },
): { onPublished: (count: number) => void } {
  const { registry } = metrics;
  let pending: Promise<{ events: number; oldestAt: Date | null }> | null = null;
  /** One store read per scrape serves both gauges. */
  const readPending = () => {
    // A scrape while the store is down reports no pending events rather than failing /metrics.
    pending ??= options.store
      .transaction((tx) => tx.outboxRelay.pending())
      .catch(() => ({ events: 0, oldestAt: null }))
      .finally(() => setTimeout(() => (pending = null), 100));
    return pending;
  };
  new Gauge({
    name: 'lectern_outbox_relay_lag_events',
    help: 'Committed change events not yet published to the event bus, over every project.',
    registers: [registry],
    async collect() {
      this.set((await readPending()).events);
    },
  });
  new Gauge({
    name: 'lectern_outbox_relay_oldest_pending_seconds',
    help: 'Age of the oldest committed change event not yet published to the event bus (0 when none).',
    registers: [registry],
    async collect() {
      const { oldestAt } = await readPending();
      this.set(oldestAt ? Math.max(0, (options.clock.now().getTime() - oldestAt.getTime()) / 1000) : 0);
    },
  });
  const published = new Counter({
    name: 'lectern_outbox_relayed_events_total',
    help: 'Change events this process published to the event bus (at-least-once: repeats count).',
    registers: [registry],
  });
  return { onPublished: (count) => published.inc(count) };
}

/** Consumer lag of each named group on the bus, read from the bus at scrape time. */
export function registerConsumerLag(metrics: ProcessMetrics, options: { bus: EventBus; groups: readonly string[] }) {
  new Gauge({
    name: 'lectern_event_consumer_lag_events',
    help: 'Change events on the bus that the consumer group has not handled yet.',
    labelNames: ['group'] as const,
    registers: [metrics.registry],
    async collect() {
      // A group whose lag cannot be read now (broker away) keeps its last value.
      for (const group of options.groups) {
        const lag = await options.bus.lag(group).catch(() => null);
        if (lag !== null) this.set({ group }, lag);
      }
    },
  });
}

/**
 * Committed change events the delivery index has not applied yet, summed over every project
 * (latest committed sequence − index watermark), read at scrape time.
 */
export function registerIndexLag(metrics: ProcessMetrics, options: { store: Store; index: DeliveryIndexReader }) {
  const read = async () => {
    const latest = await options.store.transaction(async (tx) => {
      const rows: { id: string; seq: number }[] = [];
      for (const p of await tx.projects.list()) rows.push({ id: p.id, seq: await tx.outbox.latestSeq(p.id) });
      return rows;
    });
    let lag = 0;
    for (const { id, seq } of latest) lag += Math.max(0, seq - (await options.index.watermark(id)));
    return lag;
  };
  new Gauge({
    name: 'lectern_index_watermark_lag_events',
    help: 'Committed change events the delivery index has not applied yet, summed over every project.',
    registers: [metrics.registry],
    async collect() {
      // While the database is away the gauge keeps its last value.
      const lag = await read().catch(() => null);
      if (lag !== null) this.set(lag);
    },
  });
}

/** Batches of change events this process applied to the delivery index; feeds the indexer's `onBatch`. */
export function registerIndexerMetrics(metrics: ProcessMetrics): { onBatch: () => void } {
  const batches = new Counter({
    name: 'lectern_index_applied_batches_total',
    help: 'Batches of change events this process applied to the delivery index.',
    registers: [metrics.registry],
  });
  return { onBatch: () => batches.inc() };
}
