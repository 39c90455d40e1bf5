import { openDeliveryReadSide } from '@lectern/engines';
import { listenStep, runServiceMain } from '@lectern/http-kit';
import { deliveryHttpOptions } from '@lectern/read-path';
import { buildDeliveryApp } from './app.ts';
import { deliverySettings } from './settings.ts';

await runServiceMain({
  name: 'delivery',
  summary:
    'the Delivery API (published content) and the Delivery Preview API of the cluster shape, on two ports of ' +
    'one process, reading the delivery index that the indexer keeps (LECTERN_DELIVERY_INDEX: the search engine by ' +
    'default, or SQL tables in PostgreSQL). Stateless: any number ' +
    'may run at once.',
  settings: deliverySettings,
  async start(config, { logger, onStop, step, server }) {
    const { store, core, delivery, metrics, readiness } = await openDeliveryReadSide({ step, onStop }, config);
    const index = delivery.index;
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
