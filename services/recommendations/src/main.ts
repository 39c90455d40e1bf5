import { createProcessMetrics, createReadiness, listenStep, runServiceMain } from '@lectern/http-kit';
import { openServiceCore, openServiceRecsIndex } from '@lectern/engines';
import { openEmbedder } from '@lectern/recs-sql';
import { buildRecommendationsApp } from './app.ts';
import { recommendationsSettings } from './settings.ts';

await runServiceMain({
  name: 'recommendations',
  summary:
    'the Smart Recommendations API of the cluster shape: recommend and search items from the recommendation ' +
    'index (the indexer keeps it: OpenSearch k-NN or PostgreSQL, LECTERN_RECS_INDEX), track visits and visitors. Stateless: any number may run.',
  settings: recommendationsSettings,
  async start(config, { logger, onStop, step, server }) {
    const { store, core } = await openServiceCore({ step, onStop }, config);
    const embedder = await step('cannot load the embedding model (check LECTERN_RECS_MODEL_DIR)', () =>
      openEmbedder(config),
    );
    const recs = await openServiceRecsIndex({ step, onStop }, config, { store, dimensions: embedder.dimensions });
    const metrics = createProcessMetrics();
    const readiness = createReadiness([() => store.ping(), () => recs.ping()]);
    onStop(async () => readiness.drain());
    const app = buildRecommendationsApp({
      metrics,
      readiness,
      logger,
      engine: {
        core,
        reader: recs.reader,
        tracking: recs.tracking,
        embedder,
        signals: store.signals,
      },
    });
    const listening = await listenStep({ step, server }, app, {
      host: config.host,
      port: config.port,
      portEnv: 'LECTERN_PORT',
    });
    onStop(() => listening.close());
    logger.info({ url: listening.url, recsIndex: recs.description }, 'recommendations ready');
  },
});
