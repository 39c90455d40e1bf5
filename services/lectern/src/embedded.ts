import { startAuditRetention } from '@lectern/management';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { randomIds, startBackgroundTasks, startScheduler, systemClock, type CoreDeps } from '@lectern/core';
import { buildDeliveryApp } from '@lectern/delivery';
import { deliveryHttpOptions } from '@lectern/read-path';
import { buildGraphqlApp, graphqlOptions } from '@lectern/graphql';
import {
  createLogger,
  createProcessMetrics,
  createReadiness,
  listen,
  serverOptionsOf,
  type Listening,
} from '@lectern/http-kit';
import {
  buildAssetsApp,
  buildManagementApp,
  createChangeHub,
  createPresenceHub,
  createAssetsServer,
  createManagementServer,
  defaultEditorDir,
  historyRetention,
  managementImageLimits,
  managementRateLimits,
  linkMailerOf,
  discoverSso,
  ssoOptionsOf,
  resolveAssetsOrigin,
} from '@lectern/management';
import { openFsBlobStore } from '@lectern/blob-fs';
import { createSqlIndex } from '@lectern/index-sql';
import { buildRecommendationsApp } from '@lectern/recommendations';
import { createSqlRecs, openEmbedder, resetOnProviderChange } from '@lectern/recs-sql';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { ConfigError, type ConfigOf } from '@lectern/config';
import { startEventPipeline } from './event-pipeline.ts';
import { createHostRouter } from './host-routing.ts';
import { lockDataDir, removeServerInfo, secureDataDir, writeServerInfo } from './data-dir.ts';
import { seedDemoProject, type DemoProject } from './demo.ts';
import { listenerOffsets, type ListenerName, type startSettings } from './settings.ts';

export type StartConfig = ConfigOf<typeof startSettings>;

export interface EmbeddedServer {
  readonly dataDir: string;
  readonly engine: SqlStore['engine'];
  /** Each API's own URL (`assets`: the origin of asset binaries, port base + 6); `routed`: the
   * host-routing port's, when configured; `graphqlPreview` (port base + 5) only when
   * LECTERN_GRAPHQL_PREVIEW is on. */
  readonly urls: Readonly<Record<ListenerName, string>> & {
    readonly routed?: string;
    readonly graphqlPreview?: string;
  };
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
  const tls = tlsOf(config);
  // Single sign-on's provider is asked first: a server whose provider cannot be reached does not start.
  const ssoOptions = ssoOptionsOf(config);
  const sso = ssoOptions === null ? null : await discoverSso(ssoOptions);
  const dataDir = resolve(config.dataDir);
  // The blob store lives here on PostgreSQL too: owner-only either way.
  secureDataDir(dataDir);
  const lock = config.databaseUrl === undefined ? lockDataDir(dataDir) : null;
  let store: SqlStore;
  try {
    store =
      config.databaseUrl === undefined
        ? await openPgliteStore({
            dataDir: join(dataDir, 'pglite'),
            sharedBuffersMib: config.pgliteBuffersMib,
            isAuditOn: config.isAuditOn,
          })
        : await openPostgresStore({ connectionString: config.databaseUrl, isAuditOn: config.isAuditOn });
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
  const recs = { ...(await createSqlRecs({ db: store.db })), embedder: await openEmbedder(config) };
  await resetOnProviderChange({ db: store.db, embedderId: recs.embedder.id });
  const shared = { metrics, readiness, logger };
  const blobs = openFsBlobStore({ root: join(dataDir, 'blobs') });
  const rateLimits = managementRateLimits(config);
  // Validation and cloning tasks: this process runs them; another sharing the store may too.
  const tasks = startBackgroundTasks(core, {
    runnerId: `lectern-${process.pid}-${randomIds.uuid().slice(0, 8)}`,
    onError: (err, task) => logger.error({ err, task: task?.id }, 'background task failed'),
  });
  // The editor app's live changes: attached to the bus once the event pipeline runs.
  const changes = createChangeHub();
  // Who has which item open in the editor (read from the store, issue 31).
  const presence = createPresenceHub(core);
  const http = deliveryHttpOptions(config);
  const listening: Partial<Record<ListenerName | 'routed' | 'graphqlPreview', Listening>> = {};
  let graphqlPreviewServer: Server | undefined;
  const closeAll = () => Promise.all(Object.values(listening).map((l) => l.close()));
  // Timeouts for slow clients and the grace period of close(), the same on every listener.
  const serverOptions = serverOptionsOf(config);
  const portOf = (name: ListenerName) => (config.portBase === 0 ? 0 : config.portBase + listenerOffsets[name]);
  try {
    // The assets origin first: the Management app's asset URLs and redirects name it.
    const assetsServer = createAssetsServer(buildAssetsApp({ ...shared, core, blobs, imageLimits: managementImageLimits(config) }));
    listening.assets = await listen(assetsServer, { host: config.host, port: portOf('assets'), server: serverOptions });
    const apps = {
      management: createManagementServer(
        buildManagementApp({
          ...shared,
          core,
          operatorToken,
          blobs,
          rateLimits,
          isAssetFileOptionalOnUpdate: config.managementAssetFileOptionalOnUpdate,
          trustedProxies: config.trustedProxies,
          publicUrl: config.managementPublicUrl ?? null,
          linkMailer: linkMailerOf(config, shared.logger),
          sso,
          isPasswordSignInEnabled: config.passwordSignIn,
          assetsOrigin: { publicUrl: config.assetsPublicUrl ?? null, listenerUrl: listening.assets.url },
          tasks,
          recsTracking: recs.tracking,
          editorDir: defaultEditorDir,
          changes,
          presence,
          deliveryIndex: index,
        }),
      ),
      delivery: buildDeliveryApp({ ...shared, core, index, signals: store.signals, channel: 'production', http }),
      preview: buildDeliveryApp({ ...shared, core, index, signals: store.signals, channel: 'preview', http }),
      graphql: buildGraphqlApp({ ...shared, core, index, signals: store.signals, http, graphql: graphqlOptions(config) }),
      recommendations: buildRecommendationsApp({
        ...shared,
        engine: { core, reader: recs.reader, tracking: recs.tracking, embedder: recs.embedder, signals: store.signals },
      }),
    };
    for (const name of Object.keys(apps) as (keyof typeof apps)[]) {
      listening[name] = await listen(apps[name], { host: config.host, port: portOf(name), server: serverOptions });
    }
    if (config.graphqlPreview) {
      const graphqlPreview = buildGraphqlApp({
        ...shared,
        core,
        index,
        signals: store.signals,
        http,
        graphql: graphqlOptions(config),
        channel: 'preview',
      });
      const port = config.portBase === 0 ? 0 : config.portBase + 5;
      listening.graphqlPreview = await listen(graphqlPreview, { host: config.host, port, server: serverOptions });
      graphqlPreviewServer = graphqlPreview.server;
    }
    if (config.hostRoutingPort !== undefined) {
      const targets = {
        management: apps.management,
        delivery: apps.delivery.server,
        preview: apps.preview.server,
        graphql: apps.graphql.server,
        recommendations: apps.recommendations.server,
        assets: assetsServer,
        ...(graphqlPreviewServer === undefined ? {} : { graphqlPreview: graphqlPreviewServer }),
      };
      const router = createHostRouter({ targets, tls });
      const routed = await listen(router, { host: config.host, port: config.hostRoutingPort, server: serverOptions });
      listening.routed = tls === null ? routed : { ...routed, url: routed.url.replace(/^http:/, 'https:') };
    }
  } catch (error) {
    await closeAll();
    await tasks.stop();
    await store.close();
    lock?.release();
    throw error;
  }
  const urls = Object.fromEntries(Object.entries(listening).map(([k, l]) => [k, l.url])) as EmbeddedServer['urls'];
  writeServerInfo(dataDir, { pid: process.pid, urls, operatorToken });
  const stopRetention = startAuditRetention({ core, keepDays: config.auditKeepDays, logger });
  const scheduler = startScheduler(core, {
    onError: (err) => logger.error({ err }, 'scheduled publishing or history retention failed'),
    history: historyRetention(config),
  });
  const events = await startEventPipeline({
    core: { ...core, store },
    index,
    // Delivery renders asset URLs once, so they name the assets origin from the settings (no request to read).
    assetsBase: `${resolveAssetsOrigin({
      publicUrl: config.assetsPublicUrl ?? null,
      managementOrigin: config.managementPublicUrl ?? null,
      listenerUrl: urls.assets,
    })}/assets`,
    metrics,
    webhooks: {
      isPrivateAllowed: config.webhooksAllowPrivate,
      timeoutMs: config.webhooksTimeoutMs,
      ...(config.smtpUrl === undefined ? {} : { smtp: { url: config.smtpUrl, from: config.smtpFrom } }),
    },
    recs: { writer: recs.writer, embedder: recs.embedder },
    onError: (err, what) => logger.error({ err }, what),
  });
  await changes.attach(events.bus);

  let stopping: Promise<void> | null = null;
  return {
    dataDir,
    engine: store.engine,
    urls,
    demo,
    stop() {
      stopping ??= (async () => {
        readiness.drain();
        // Open change streams end first, so the listeners are not held for the grace period.
        await changes.close();
        presence.close();
        await closeAll();
        stopRetention();
        await scheduler.stop();
        await tasks.stop();
        await events.stop();
        await store.close();
        removeServerInfo(dataDir);
        lock?.release();
      })();
      return stopping;
    },
  };
}

/** The host-routing port's certificate and key: both or neither. */
function tlsOf(config: StartConfig): { certFile: string; keyFile: string } | null {
  const { tlsCertFile: certFile, tlsKeyFile: keyFile } = config;
  if (certFile === undefined && keyFile === undefined) return null;
  if (certFile === undefined || keyFile === undefined)
    throw new ConfigError(['LECTERN_TLS_CERT_FILE and LECTERN_TLS_KEY_FILE: set both (a PEM certificate and its key), or neither']);
  if (config.hostRoutingPort === undefined)
    throw new ConfigError(['LECTERN_TLS_CERT_FILE: TLS is served on the host-routing port; set LECTERN_HOST_ROUTING_PORT too']);
  return { certFile, keyFile };
}
