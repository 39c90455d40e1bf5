import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { createHashedEmbedder, randomIds, startScheduler, systemClock, type CoreDeps } from '@lectern/core';
import { buildDeliveryApp, deliveryHttpOptions } from '@lectern/delivery';
import { buildGraphqlApp } from '@lectern/graphql';
import { createLogger, createProcessMetrics, createReadiness, listen, type Listening } from '@lectern/http-kit';
import { buildManagementApp, createManagementServer, managementRateLimits } from '@lectern/management';
import { openFsBlobStore } from '@lectern/blob-fs';
import { createSqlIndex } from '@lectern/index-sql';
import { buildRecommendationsApp } from '@lectern/recommendations';
import { createSqlRecs } from '@lectern/recs-sql';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import type { ConfigOf } from '@lectern/config';
import { startEventPipeline } from './event-pipeline.ts';
import { lockDataDir, removeServerInfo, writeServerInfo } from './data-dir.ts';
import { seedDemoProject, type DemoProject } from './demo.ts';
import { listenerOffsets, type ListenerName, type startSettings } from './settings.ts';

export type StartConfig = ConfigOf<typeof startSettings>;

export interface EmbeddedServer {
  readonly dataDir: string;
  readonly engine: SqlStore['engine'];
  readonly urls: Readonly<Record<ListenerName, string>>;
  /** Present on the first start only: the demo project and its freshly issued keys. */
  readonly demo: DemoProject | null;
  /** Drains readiness, closes the listeners (in-flight requests finish), the store and the lock. */
  stop(): Promise<void>;
}

/**
 * Runs every service in this process on embedded adapters (PGlite in the data directory), or on
 * PostgreSQL when a database URL is configured.
 */
export async function startEmbedded(config: StartConfig): Promise<EmbeddedServer> {
  const dataDir = resolve(config.dataDir);
  const lock = config.databaseUrl === undefined ? lockDataDir(dataDir) : null;
  let store: SqlStore;
  try {
    store =
      config.databaseUrl === undefined
        ? await openPgliteStore({ dataDir: join(dataDir, 'pglite') })
        : await openPostgresStore({ connectionString: config.databaseUrl });
  } catch (error) {
    lock?.release();
    throw error;
  }
  if (store.engine === 'pglite') await store.analyze();
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  const metrics = createProcessMetrics();
  const logger = createLogger({ level: config.logLevel, name: 'lectern' });
  const readiness = createReadiness([() => store.ping()]);
  const demo = config.isDemo ? await seedDemoProject(core) : null;
  const operatorToken = config.operatorToken ?? randomBytes(24).toString('hex');

  const index = createSqlIndex({ db: store.db });
  const recs = { ...(await createSqlRecs({ db: store.db })), embedder: createHashedEmbedder() };
  const shared = { metrics, readiness, logger };
  const blobs = openFsBlobStore({ root: join(dataDir, 'blobs') });
  const rateLimits = managementRateLimits(config);
  const http = deliveryHttpOptions(config);
  const apps = {
    management: createManagementServer(
      buildManagementApp({
        ...shared,
        core,
        operatorToken,
        blobs,
        rateLimits,
        isAssetFileOptionalOnUpdate: config.managementAssetFileOptionalOnUpdate,
      }),
    ),
    delivery: buildDeliveryApp({ ...shared, core, index, signals: store.signals, channel: 'production', http }),
    preview: buildDeliveryApp({ ...shared, core, index, signals: store.signals, channel: 'preview', http }),
    graphql: buildGraphqlApp(shared),
    recommendations: buildRecommendationsApp({
      ...shared,
      engine: { core, reader: recs.reader, tracking: recs.tracking, embedder: recs.embedder, signals: store.signals },
    }),
  };
  const listening: Partial<Record<ListenerName, Listening>> = {};
  const closeAll = () => Promise.all(Object.values(listening).map((l) => l.close()));
  try {
    for (const name of Object.keys(apps) as ListenerName[]) {
      const port = config.portBase === 0 ? 0 : config.portBase + listenerOffsets[name];
      listening[name] = await listen(apps[name], { host: config.host, port });
    }
  } catch (error) {
    await closeAll();
    await store.close();
    lock?.release();
    throw error;
  }
  const urls = Object.fromEntries(Object.entries(listening).map(([k, l]) => [k, l.url])) as Record<
    ListenerName,
    string
  >;
  writeServerInfo(dataDir, { pid: process.pid, urls, operatorToken });
  const scheduler = startScheduler(core, { onError: (err) => logger.error({ err }, 'scheduled publishing failed') });
  const events = await startEventPipeline({
    core: { ...core, store },
    index,
    assetsBase: `${urls.management}/assets`,
    metrics,
    recs: { writer: recs.writer, embedder: recs.embedder },
    onError: (err, what) => logger.error({ err }, what),
  });

  let stopping: Promise<void> | null = null;
  return {
    dataDir,
    engine: store.engine,
    urls,
    demo,
    stop() {
      stopping ??= (async () => {
        readiness.drain();
        await closeAll();
        await scheduler.stop();
        await events.stop();
        await store.close();
        removeServerInfo(dataDir);
        lock?.release();
      })();
      return stopping;
    },
  };
}
