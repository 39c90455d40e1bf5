import { randomIds, systemClock, type CoreDeps } from '@lectern/core';
import { createProcessMetrics, createReadiness, listenStep, runServiceMain } from '@lectern/http-kit';
import { deliveryIndexProblem, openReachableDeliveryIndex } from '@lectern/engines';
import { openPostgresStore } from '@lectern/store-sql';
import { buildDeliveryApp } from './app.ts';
import { deliveryHttpOptions, deliverySettings } from './settings.ts';

await runServiceMain({
  name: 'delivery',
  summary:
    'the Delivery API (published content) and the Delivery Preview API of the cluster shape, on two ports of ' +
    'one process, reading the delivery index that the indexer keeps (LECTERN_DELIVERY_INDEX: the search engine by ' +
    'default, or SQL tables in PostgreSQL). Stateless: any number ' +
    'may run at once.',
  settings: deliverySettings,
  async start(config, { logger, onStop, step, server }) {
    const store = await step('cannot open PostgreSQL (check LECTERN_DATABASE_URL)', () =>
      openPostgresStore({ connectionString: config.databaseUrl, poolSize: config.poolSize }),
    );
    onStop(() => store.close());
    const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
    const delivery = await step(deliveryIndexProblem, () => openReachableDeliveryIndex({ config, db: store.db }));
    onStop(() => delivery.close());
    const index = delivery.index;
    const metrics = createProcessMetrics();
    const readiness = createReadiness([() => store.ping(), () => delivery.ping()]);
    onStop(async () => readiness.drain());
    const listeners = [
      { channel: 'production', port: config.deliveryPort, env: 'LECTERN_DELIVERY_PORT' },
      { channel: 'preview', port: config.previewPort, env: 'LECTERN_PREVIEW_PORT' },
    ] as const;
    // Replicas share the uncached limits through the database.
    const http = { ...deliveryHttpOptions(config), isRateLimitShared: true };
    const urls: string[] = [];
    for (const { channel, port, env } of listeners) {
      const app = buildDeliveryApp({ channel, core, index, signals: store.signals, http, metrics, readiness, logger });
      const listening = await listenStep({ step, server }, app, { host: config.host, port, portEnv: env });
      onStop(() => listening.close());
      urls.push(listening.url);
    }
    logger.info({ url: urls[0], previewUrl: urls[1], deliveryIndex: delivery.description }, 'delivery ready');
  },
});
