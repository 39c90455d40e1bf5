import { Counter, Gauge, Histogram } from 'prom-client';
import type { Store } from '@lectern/core';
import type { ProcessMetrics } from '@lectern/http-kit';
import type { AttemptReport } from './delivery.ts';

/**
 * Webhook metrics on the process registry: the queue per state and webhooks per health (read from
 * the store at scrape time, so every replica reports the shared totals), and this process's
 * attempts and delivery latency (notification created → POST answered). Returns the worker's
 * `onAttempt` hook.
 */
export function registerWebhookMetrics(
  metrics: ProcessMetrics,
  options: { store: Store },
): { onAttempt: (report: AttemptReport) => void } {
  const { store } = options;
  new Gauge({
    name: 'lectern_webhook_notifications',
    help: 'Webhook notifications stored, by state (pending: queued or retrying; delivered; expired: removed from the queue).',
    labelNames: ['state'] as const,
    registers: [metrics.registry],
    async collect() {
      const depth = await store.transaction((tx) => tx.webhookQueue.depth()).catch(() => null);
      if (depth) for (const [state, n] of Object.entries(depth)) this.set({ state }, n);
    },
  });
  new Gauge({
    name: 'lectern_webhooks',
    help: 'Registered webhooks, by health (unknown is "ready for message").',
    labelNames: ['health'] as const,
    registers: [metrics.registry],
    async collect() {
      const counts = await store.transaction((tx) => tx.webhookQueue.healthCounts()).catch(() => null);
      if (counts) for (const [health, n] of Object.entries(counts)) this.set({ health }, n);
    },
  });
  const attempts = new Counter({
    name: 'lectern_webhook_attempts_total',
    help: 'Webhook POSTs sent by this process, by outcome (accepted: a 2xx answer).',
    labelNames: ['outcome'] as const,
    registers: [metrics.registry],
  });
  const notifications = new Counter({
    name: 'lectern_webhook_notifications_sent_total',
    help: 'Notifications carried by the POSTs of this process, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [metrics.registry],
  });
  const latency = new Histogram({
    name: 'lectern_webhook_delivery_latency_seconds',
    help: 'From a notification being created (its change event committed) to the answer of the POST that delivered it.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600, 86400],
    registers: [metrics.registry],
  });
  return {
    onAttempt(report) {
      const outcome = report.outcome.isAccepted ? 'accepted' : 'failed';
      attempts.inc({ outcome });
      notifications.inc({ outcome }, report.notifications.length);
      if (report.outcome.isAccepted)
        for (const n of report.notifications)
          latency.observe(Math.max(0, (report.at.getTime() - n.createdAt.getTime()) / 1000));
    },
  };
}
