import { createServer } from 'node:http';
import { openS3BlobStore } from '@lectern/blob-s3';
import { createKafkaBus } from '@lectern/bus-kafka';
import { ConfigError, loadConfig, type ConfigOf } from '@lectern/config';
import { createOutboxRelay, randomIds, startScheduler, systemClock, type CoreDeps } from '@lectern/core';
import {
  createLogger,
  createProcessMetrics,
  createReadiness,
  listen,
  registerRelayMetrics,
  type Logger,
} from '@lectern/http-kit';
import { openPostgresStore } from '@lectern/store-sql';
import { buildManagementApp } from './app.ts';
import { managementSettings } from './settings.ts';

/**
 * The Management service of the cluster shape: Management and admin APIs on PostgreSQL and S3,
 * the outbox relay to Kafka and the scheduler of timed publishing. Any number may run against one
 * database (relay leases and scheduler claims keep their work single). Config: environment only.
 */
type Config = ConfigOf<typeof managementSettings>;

/** Runs one start step; a failure says which step and which setting to look at. */
async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new Error(`${what}: ${(error as Error).message ?? String(error)}`, { cause: error });
  }
}

async function start(config: Config, logger: Logger): Promise<() => Promise<void>> {
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch((err: unknown) => logger.error({ err }, 'close failed'));
  };
  try {
    const store = await step('cannot open PostgreSQL (check LECTERN_DATABASE_URL)', () =>
      openPostgresStore({ connectionString: config.databaseUrl }),
    );
    closers.push(() => store.close());
    const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
    const blobs = openS3BlobStore({
      endpoint: config.s3Endpoint,
      region: config.s3Region,
      bucket: config.s3Bucket,
      accessKey: config.s3AccessKey,
      secretKey: config.s3SecretKey,
    });
    // Stat of an absent key creates the bucket when missing and proves endpoint and credentials.
    await step('cannot use the S3 bucket (check LECTERN_S3_ENDPOINT, LECTERN_S3_BUCKET and the keys)', () =>
      blobs.stat('lectern-start-probe'),
    );
    const bus = createKafkaBus({
      brokers: config.kafkaBrokers,
      topic: config.kafkaTopic,
      clientId: 'lectern-management',
      onError: (err) => logger.error({ err }, 'Kafka client error'),
    });
    closers.push(() => bus.close());

    const metrics = createProcessMetrics();
    const readiness = createReadiness([() => store.ping()]);
    const relayMetrics = registerRelayMetrics(metrics, { store, clock: systemClock });
    const app = buildManagementApp({ core, metrics, logger, readiness, operatorToken: config.operatorToken, blobs });
    const relay = createOutboxRelay({
      store,
      bus,
      clock: systemClock,
      onPublished: relayMetrics.onPublished,
      onError: (err) => logger.error({ err }, 'relaying change events to Kafka failed'),
    });
    const stopWaking = store.onEventsCommitted(() => relay.wake());
    relay.start();
    closers.push(async () => {
      stopWaking();
      await relay.stop();
    });
    const scheduler = startScheduler(core, { onError: (err) => logger.error({ err }, 'scheduled publishing failed') });
    closers.push(() => scheduler.stop());

    const listening = await step(
      `cannot listen on ${config.host}:${config.port} (check LECTERN_HOST, LECTERN_PORT)`,
      () => listen(createServer(app), { host: config.host, port: config.port }),
    );
    closers.push(async () => {
      readiness.drain();
      await listening.close();
    });

    logger.info({ url: listening.url, managementApi: `${listening.url}/v2` }, 'management ready');
    return closeAll;
  } catch (error) {
    await closeAll();
    throw error;
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig({ settings: managementSettings, env: process.env });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`lectern management: ${error.message}\n`);
    process.exit(2);
  }
  const logger = createLogger({ level: config.logLevel, name: 'management' });
  let stop: () => Promise<void>;
  try {
    stop = await start(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, `management could not start: ${(error as Error).message}`);
    process.exit(1);
  }
  let isStopping = false;
  const shutdown = (signal: string) => {
    if (isStopping) process.exit(1); // a second signal: stop at once
    isStopping = true;
    logger.info({ signal }, 'management stopping');
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'management stopped with an error');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
