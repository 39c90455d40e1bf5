import { createKafkaBus } from '@lectern/bus-kafka';
import { ConfigError, loadConfig, type ConfigOf } from '@lectern/config';
import { randomIds, systemClock, type CoreDeps } from '@lectern/core';
import { toDeliveryError } from '@lectern/errors';
import {
  createFastifyService,
  createLogger,
  createProcessMetrics,
  createReadiness,
  listen,
  registerConsumerLag,
  type Logger,
} from '@lectern/http-kit';
import { createIndexer, createSqlIndex } from '@lectern/index-sql';
import { openPostgresStore } from '@lectern/store-sql';
import { indexerSettings } from './settings.ts';
import { registerIndexWatermarkLag } from './watermark-lag.ts';

/**
 * The indexer of the cluster shape: catches up every project from the outbox, then consumes
 * change events from Kafka in consumer group `lectern-indexer` and writes the SQL delivery index.
 * Several may run: Kafka spreads partitions (projects) over the group's members. Its listener
 * serves only /healthz, /readyz (ready once consuming) and /metrics.
 */
type Config = ConfigOf<typeof indexerSettings>;

const group = 'lectern-indexer';

async function start(config: Config, logger: Logger): Promise<() => Promise<void>> {
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch((err: unknown) => logger.error({ err }, 'close failed'));
  };
  try {
    const store = await openPostgresStore({ connectionString: config.databaseUrl }).catch((error: unknown) => {
      throw new Error(`cannot open PostgreSQL (check LECTERN_DATABASE_URL): ${(error as Error).message}`, {
        cause: error,
      });
    });
    closers.push(() => store.close());
    const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
    const index = createSqlIndex({ db: store.db, isSingleConnection: false });
    const bus = createKafkaBus({
      brokers: config.kafkaBrokers,
      topic: config.kafkaTopic,
      clientId: 'lectern-indexer',
      onError: (err) => logger.error({ err }, 'Kafka client error'),
    });
    closers.push(() => bus.close());

    let isConsuming = false;
    const metrics = createProcessMetrics();
    const readiness = createReadiness([
      () => store.ping(),
      async () => {
        if (!isConsuming) throw new Error('not consuming yet');
      },
    ]);
    registerConsumerLag(metrics, { bus, groups: [group] });
    registerIndexWatermarkLag(metrics, { store, index });
    const app = createFastifyService({
      service: 'indexer',
      metrics,
      readiness,
      logger,
      toErrorResponse: toDeliveryError,
    });
    // Listening first: liveness answers during a long catch-up, readiness once consuming.
    const listening = await listen(app, { host: config.host, port: config.port }).catch(async (error: unknown) => {
      await app.close();
      throw new Error(
        `cannot listen on ${config.host}:${config.port} (check LECTERN_HOST, LECTERN_PORT): ${String(error)}`,
        {
          cause: error,
        },
      );
    });
    closers.push(async () => {
      readiness.drain();
      await listening.close();
    });

    const indexer = createIndexer({
      core,
      index,
      assetsBase: config.assetsBaseUrl,
      bus,
      group,
      onError: (err) => logger.error({ err }, 'delivery indexing failed; the events will be delivered again'),
    });
    await indexer.start().catch((error: unknown) => {
      throw new Error(`cannot consume change events (check LECTERN_KAFKA_BROKERS): ${(error as Error).message}`, {
        cause: error,
      });
    });
    isConsuming = true;
    // Stopped before the bus closes (closers run in reverse): the batch under way is applied first.
    closers.push(() => indexer.stop());

    logger.info({ url: listening.url, group, topic: config.kafkaTopic }, 'indexer ready');
    return closeAll;
  } catch (error) {
    await closeAll();
    throw error;
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig({ settings: indexerSettings, env: process.env });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`lectern indexer: ${error.message}\n`);
    process.exit(2);
  }
  const logger = createLogger({ level: config.logLevel, name: 'indexer' });
  let stop: () => Promise<void>;
  try {
    stop = await start(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, `indexer could not start: ${(error as Error).message}`);
    process.exit(1);
  }
  let isStopping = false;
  const shutdown = (signal: string) => {
    if (isStopping) process.exit(1); // a second signal: stop at once
    isStopping = true;
    logger.info({ signal }, 'indexer stopping');
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'indexer stopped with an error');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
