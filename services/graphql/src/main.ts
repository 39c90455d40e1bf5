import { openDeliveryReadSide } from '@lectern/engines';
import { listenStep, runServiceMain } from '@lectern/http-kit';
import { buildGraphqlApp } from './app.ts';
import { graphqlHttpOptions, graphqlOptions, graphqlSettings } from './settings.ts';

await runServiceMain({
  name: 'graphql',
  summary:
    'the Delivery GraphQL API of the cluster shape (and preview GraphQL when LECTERN_GRAPHQL_PREVIEW is on), ' +
    'reading the delivery index that the indexer keeps (LECTERN_DELIVERY_INDEX: the search engine by default, or ' +
    'SQL tables in PostgreSQL). Stateless: any number may run at once.',
  settings: graphqlSettings,
  async start(config, { logger, onStop, step, server }) {
    const { store, core, delivery, metrics, readiness } = await openDeliveryReadSide({ step, onStop }, config);
    const index = delivery.index;
    // Replicas share the resource budget through the database.
    const http = { ...graphqlHttpOptions(config), isRateLimitShared: true };
    const graphql = graphqlOptions(config);
    const listeners = [
      { channel: 'production', port: config.graphqlPort, env: 'LECTERN_GRAPHQL_PORT' },
      ...(config.graphqlPreview
        ? [{ channel: 'preview', port: config.graphqlPreviewPort, env: 'LECTERN_GRAPHQL_PREVIEW_PORT' } as const]
        : []),
    ] as const;
    const urls: string[] = [];
    for (const { channel, port, env } of listeners) {
      const app = buildGraphqlApp({
        channel,
        core,
        index,
        signals: store.signals,
        http,
        graphql,
        metrics,
        readiness,
        logger,
      });
      const listening = await listenStep({ step, server }, app, { host: config.host, port, portEnv: env });
      onStop(() => listening.close());
      urls.push(listening.url);
    }
    logger.info({ url: urls[0], previewUrl: urls[1] ?? null, deliveryIndex: delivery.description }, 'graphql ready');
  },
});
