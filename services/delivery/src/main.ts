import { ConfigError, loadConfig, type ConfigOf } from '@lectern/config';
import { randomIds, systemClock, type CoreDeps } from '@lectern/core';
import {
  createLogger,
  createProcessMetrics,
  createReadiness,
  listen,
  type Listening,
  type Logger,
} from '@lectern/http-kit';
import { createSqlIndex } from '@lectern/index-sql';
import { openPostgresStore } from '@lectern/store-sql';
import { buildDeliveryApp, type DeliveryChannel } from './app.ts';
import { deliverySettings } from './settings.ts';

/**
 * The Delivery service of the cluster shape: the Delivery API (published content) and the Delivery
 * Preview API on two ports of one process, reading the SQL delivery index that the indexer keeps
 * in PostgreSQL. It writes nothing but rate-limit windows, so any number may run at once.
 */
type Config = ConfigOf<typeof deliverySettings>;

async function start(config: Config, logger: Logger): Promise<() => Promise<void>> {
  let store;
  try {
    store = await openPostgresStore({ connectionString: config.databaseUrl, poolSize: config.poolSize });
  } catch (error) {
    throw new Error(`cannot open PostgreSQL (check LECTERN_DATABASE_URL): ${(error as Error).message}`, {
      cause: error,
    });
  }
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  const index = createSqlIndex({ db: store.db, isSingleConnection: false });
  const metrics = createProcessMetrics();
  const readiness = createReadiness([() => store.ping()]);
  const ports: Record<DeliveryChannel, { port: number; env: string }> = {
    production: { port: config.deliveryPort, env: 'LECTERN_DELIVERY_PORT' },
    preview: { port: config.previewPort, env: 'LECTERN_PREVIEW_PORT' },
  };
  const listening: Listening[] = [];
  const stop = async () => {
    readiness.drain();
    await Promise.all(listening.map((l) => l.close()));
    await store.close();
  };
  const urls: Partial<Record<DeliveryChannel, string>> = {};
  try {
    for (const channel of ['production', 'preview'] as const) {
      const app = buildDeliveryApp({ channel, core, index, metrics, readiness, logger });
      const { port, env } = ports[channel];
      try {
        listening.push(await listen(app, { host: config.host, port }));
      } catch (error) {
        await app.close();
        throw new Error(`cannot listen on ${config.host}:${port} (check LECTERN_HOST, ${env}): ${String(error)}`, {
          cause: error,
        });
      }
      urls[channel] = listening.at(-1)?.url;
    }
  } catch (error) {
    await stop();
    throw error;
  }
  logger.info({ url: urls.production, previewUrl: urls.preview }, 'delivery ready');
  return stop;
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig({ settings: deliverySettings, env: process.env });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`lectern delivery: ${error.message}\n`);
    process.exit(2);
  }
  const logger = createLogger({ level: config.logLevel, name: 'delivery' });
  let stop: () => Promise<void>;
  try {
    stop = await start(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, `delivery could not start: ${(error as Error).message}`);
    process.exit(1);
  }
  let isStopping = false;
  const shutdown = (signal: string) => {
    if (isStopping) process.exit(1); // a second signal: stop at once
    isStopping = true;
    logger.info({ signal }, 'delivery stopping');
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'delivery stopped with an error');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
