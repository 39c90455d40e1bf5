import { createServiceBus } from '@lectern/bus-kafka';
import { createIndexer, createRecsConsumer, randomIds, systemClock, type CoreDeps } from '@lectern/core';
import {
  createProcessMetrics,
  createReadiness,
  listenProbes,
  registerConsumerLag,
  registerIndexerMetrics,
  registerIndexLag,
  runServiceMain,
} from '@lectern/http-kit';
import { deliveryIndexProblem, openReachableDeliveryIndex, openRecsIndex } from '@lectern/engines';
import { openEmbedder, resetOnProviderChange } from '@lectern/recs-sql';
import { openPostgresStore } from '@lectern/store-sql';
import { indexerSettings } from './settings.ts';

const group = 'lectern-indexer';
/** The recommendation index (issue 16) is kept by its own group in the same process. */
const recsGroup = 'lectern-recommendations';

await runServiceMain({
  name: 'indexer',
  summary:
    'the indexer of the cluster shape: catches every project up from the outbox, then consumes change ' +
    `events from Kafka in consumer group ${group} and writes the delivery index (LECTERN_DELIVERY_INDEX: the ` +
    'search engine by default, or SQL tables). Several may run: Kafka ' +
    'spreads partitions (projects) over the members. Its listener serves /healthz, /readyz (ready once ' +
    'consuming) and /metrics.',
  settings: indexerSettings,
  async start(config, { logger, onStop, step, server }) {
    const store = await step('cannot open PostgreSQL (check LECTERN_DATABASE_URL)', () =>
      openPostgresStore({ connectionString: config.databaseUrl }),
    );
    onStop(() => store.close());
    const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
    const delivery = await step(deliveryIndexProblem, () => openReachableDeliveryIndex({ config, db: store.db }));
    onStop(() => delivery.close());
    const index = delivery.index;
    const bus = createServiceBus({
      brokers: config.kafkaBrokers,
      topic: config.kafkaTopic,
      service: 'indexer',
      logger,
    });
    onStop(() => bus.close());

    let isConsuming = false;
    const metrics = createProcessMetrics();
    const readiness = createReadiness([
      () => store.ping(),
      () => delivery.ping(),
      async () => {
        if (!isConsuming) throw new Error('not consuming yet');
      },
    ]);
    registerConsumerLag(metrics, { bus, groups: [group, recsGroup] });
    registerIndexLag(metrics, { store, index });
    const { onBatch } = registerIndexerMetrics(metrics);
    // Listening first: liveness answers during a long catch-up, readiness once consuming.
    const listening = await listenProbes(
      { logger, onStop, step, server },
      { service: 'indexer', host: config.host, port: config.port, metrics, readiness },
    );

    const indexer = createIndexer({
      core,
      index,
      assetsBase: config.assetsBaseUrl,
      bus,
      group,
      onBatch,
      onError: (err) => logger.error({ err }, 'delivery indexing failed; the events will be delivered again'),
    });
    await step('cannot consume change events (check LECTERN_KAFKA_BROKERS)', () => indexer.start());
    const embedder = await step('cannot load the embedding model (check LECTERN_RECS_MODEL_DIR)', () =>
      openEmbedder(config),
    );
    const reEmbedded = await resetOnProviderChange({ db: store.db, embedderId: embedder.id });
    if (reEmbedded.length > 0) logger.info({ projects: reEmbedded.length }, 're-embedding for another provider');
    const recs = await step('cannot use the recommendation index (check LECTERN_RECS_INDEX, LECTERN_SEARCH_URL)', () =>
      openRecsIndex({ config, db: store.db, dimensions: embedder.dimensions }),
    );
    onStop(() => recs.close());
    const recsConsumer = createRecsConsumer({
      core,
      writer: recs.writer,
      embedder,
      bus,
      group: recsGroup,
      onError: (err) => logger.error({ err }, 'recommendation indexing failed; the events will be delivered again'),
    });
    await step('cannot consume change events for recommendations', () => recsConsumer.start());
    isConsuming = true;
    // Stopped before the bus closes (closers run in reverse): the batch under way is applied first.
    onStop(() => indexer.stop());
    onStop(() => recsConsumer.stop());
    logger.info(
      {
        url: listening.url,
        group,
        topic: config.kafkaTopic,
        deliveryIndex: delivery.description,
        recsIndex: recs.description,
      },
      'indexer ready',
    );
  },
});
