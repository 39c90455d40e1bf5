import { createServiceBus } from '@lectern/bus-kafka';
import { createIndexer, createRecsConsumer } from '@lectern/core';
import { openServiceCore, openServiceDeliveryIndex, openServiceRecsIndex } from '@lectern/engines';
import { listenConsumerProbes, registerIndexerMetrics, registerIndexLag, runServiceMain } from '@lectern/http-kit';
import { openEmbedder, resetOnProviderChange } from '@lectern/recs-sql';
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
    const { store, core } = await openServiceCore({ step, onStop }, config);
    const delivery = await openServiceDeliveryIndex({ step, onStop }, config, store, {
      onSweepError: (err) => logger.warn({ err }, 'deleting superseded document versions failed; retrying later'),
    });
    const index = delivery.index;
    const bus = createServiceBus({
      brokers: config.kafkaBrokers,
      topic: config.kafkaTopic,
      service: 'indexer',
      logger,
    });
    onStop(() => bus.close());

    const { listening, registered, markConsuming } = await listenConsumerProbes(
      { logger, onStop, step, server },
      {
        service: 'indexer',
        host: config.host,
        port: config.port,
        bus,
        groups: [group, recsGroup],
        checks: [() => store.ping(), () => delivery.ping()],
        register: (metrics) => {
          registerIndexLag(metrics, { store, index });
          return registerIndexerMetrics(metrics);
        },
      },
    );

    const indexer = createIndexer({
      core,
      index,
      assetsBase: config.assetsBaseUrl,
      bus,
      group,
      ...(registered ? { onBatch: registered.onBatch } : {}),
      onError: (err) => logger.error({ err }, 'delivery indexing failed; the events will be delivered again'),
    });
    await step('cannot consume change events (check LECTERN_KAFKA_BROKERS)', () => indexer.start());
    const embedder = await step('cannot load the embedding model (check LECTERN_RECS_MODEL_DIR)', () =>
      openEmbedder(config),
    );
    const reEmbedded = await resetOnProviderChange({ db: store.db, embedderId: embedder.id });
    if (reEmbedded.length > 0) logger.info({ projects: reEmbedded.length }, 're-embedding for another provider');
    const recs = await openServiceRecsIndex({ step, onStop }, config, { store, dimensions: embedder.dimensions });
    const recsConsumer = createRecsConsumer({
      core,
      writer: recs.writer,
      embedder,
      bus,
      group: recsGroup,
      onError: (err) => logger.error({ err }, 'recommendation indexing failed; the events will be delivered again'),
    });
    await step('cannot consume change events for recommendations', () => recsConsumer.start());
    markConsuming();
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
