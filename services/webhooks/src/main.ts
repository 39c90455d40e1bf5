import { createServiceBus } from '@lectern/bus-kafka';
import { randomIds, systemClock } from '@lectern/core';
import { listenConsumerProbes, runServiceMain } from '@lectern/http-kit';
import { openPostgresStore } from '@lectern/store-sql';
import { createWebhookService, webhooksGroup } from './service.ts';
import { webhooksServiceSettings } from './settings.ts';

await runServiceMain({
  name: 'webhooks',
  summary:
    'the webhook worker of the cluster shape: catches every project up from the outbox, then consumes change ' +
    `events from Kafka in consumer group ${webhooksGroup}, stores the notifications of matching webhooks in ` +
    'PostgreSQL and delivers them signed, in order per webhook, retrying on the schedule. Several may run: ' +
    'Kafka spreads projects over the members and a lease per webhook keeps its order. Its listener serves ' +
    '/healthz, /readyz (ready once consuming) and /metrics.',
  settings: webhooksServiceSettings,
  async start(config, { logger, onStop, step, server }) {
    const store = await step('cannot open PostgreSQL (check LECTERN_DATABASE_URL)', () =>
      openPostgresStore({ connectionString: config.databaseUrl }),
    );
    onStop(() => store.close());
    const bus = createServiceBus({
      brokers: config.kafkaBrokers,
      topic: config.kafkaTopic,
      service: 'webhooks',
      logger,
    });
    onStop(() => bus.close());

    const { listening, metrics, markConsuming } = await listenConsumerProbes(
      { logger, onStop, step, server },
      {
        service: 'webhooks',
        host: config.host,
        port: config.port,
        bus,
        groups: [webhooksGroup],
        checks: [() => store.ping()],
      },
    );

    const worker = createWebhookService({
      store,
      clock: systemClock,
      ids: randomIds,
      bus,
      isPrivateAllowed: config.webhooksAllowPrivate,
      timeoutMs: config.webhooksTimeoutMs,
      ...(config.smtpUrl === undefined ? {} : { smtp: { url: config.smtpUrl, from: config.smtpFrom } }),
      metrics,
      // Never the error's request: a webhook's URL, headers and secret stay out of the logs.
      onError: (err, what) => logger.error({ err: { message: (err as Error)?.message } }, what),
    });
    // A broker that has just started may not have its group coordinator yet: try a few times.
    await step('cannot consume change events (check LECTERN_KAFKA_BROKERS)', async () => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await worker.start();
        } catch (error) {
          if (attempt >= 5) throw error;
          logger.warn(
            { err: { message: (error as Error).message }, attempt },
            'joining the consumer group failed; retrying',
          );
          await new Promise((r) => setTimeout(r, 2_000));
        }
      }
    });
    markConsuming();
    // Stopped before the bus closes (closers run in reverse): POSTs under way are recorded first.
    onStop(() => worker.stop());
    logger.info({ url: listening.url, group: webhooksGroup, topic: config.kafkaTopic }, 'webhooks ready');
  },
});
