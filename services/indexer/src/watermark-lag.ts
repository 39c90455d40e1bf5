import type { DeliveryIndexReader, Store } from '@lectern/core';
import type { ProcessMetrics } from '@lectern/http-kit';

const name = 'lectern_index_watermark_lag_events';
const help = 'Committed change events the delivery index has not applied yet, summed over every project.';

/**
 * Sum over projects of (latest committed sequence − index watermark), read at scrape time.
 * Concurrent scrapes share one read; a scrape while the database is away reports the last value.
 */
export async function indexWatermarkLag(options: { store: Store; index: DeliveryIndexReader }): Promise<number> {
  const latest = await options.store.transaction(async (tx) => {
    const rows: { id: string; seq: number }[] = [];
    for (const p of await tx.projects.list()) rows.push({ id: p.id, seq: await tx.outbox.latestSeq(p.id) });
    return rows;
  });
  let lag = 0;
  for (const { id, seq } of latest) lag += Math.max(0, seq - (await options.index.watermark(id)));
  return lag;
}

/**
 * Registers the index watermark lag gauge. The indexer does not depend on prom-client, so this is
 * a metric in the shape the registry reads (`name`, and `get()` giving help, type and values)
 * rather than a prom-client Gauge.
 */
export function registerIndexWatermarkLag(
  metrics: ProcessMetrics,
  options: { store: Store; index: DeliveryIndexReader },
): void {
  let last = 0;
  let pending: Promise<number> | null = null;
  const read = () => {
    pending ??= indexWatermarkLag(options)
      .then((lag) => (last = lag))
      .catch(() => last)
      .finally(() => setTimeout(() => (pending = null), 100));
    return pending;
  };
  const metric = {
    name,
    help,
    async get() {
      return { name, help, type: 'gauge', aggregator: 'sum', values: [{ value: await read(), labels: {} }] };
    },
  };
  metrics.registry.registerMetric(metric as unknown as Parameters<ProcessMetrics['registry']['registerMetric']>[0]);
}
