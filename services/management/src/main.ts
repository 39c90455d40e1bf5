import { startAuditRetention } from './audit-retention.ts';
import { openS3BlobStore } from '@lectern/blob-s3';
import { createServiceBus } from '@lectern/bus-kafka';
import {
  createOutboxRelay,
  randomIds,
  startBackgroundTasks,
  startScheduler,
  systemClock,
  type CoreDeps,
} from '@lectern/core';
import { createProcessMetrics, createReadiness, listen, registerRelayMetrics, runServiceMain } from '@lectern/http-kit';
import { createSqlRecsTracking } from '@lectern/recs-sql';
import { openPostgresStore } from '@lectern/store-sql';
import { buildManagementApp, createManagementServer } from './app.ts';
import { linkMailerOf } from './http/app-api/links.ts';
import { buildAssetsApp, createAssetsServer } from './assets-app.ts';
import { defaultEditorDir } from './http/editor-app/routes.ts';
import { createChangeHub } from './changes/change-hub.ts';
import { createPresenceHub } from './presence/presence-hub.ts';
import { historyRetention, managementImageLimits, managementRateLimits, managementSettings } from './settings.ts';
import { discoverSso } from './http/app-api/sso/sso-client.ts';
import { ssoOptionsOf } from './sso-settings.ts';

await runServiceMain({
  name: 'management',
  summary:
    'the Management and admin APIs of the cluster shape on PostgreSQL and S3, with the outbox relay to Kafka ' +
    'and the scheduler of timed publishing. Any number may run against one database (relay leases and ' +
    'scheduler claims keep their work single).',
  settings: managementSettings,
  async start(config, { logger, onStop, step, server }) {
    // Single sign-on's provider is asked first: a server whose provider cannot be reached does not start.
    const ssoOptions = ssoOptionsOf(config);
    const sso =
      ssoOptions === null
        ? null
        : await step('cannot read the OpenID provider (check LECTERN_OIDC_ISSUER)', () => discoverSso(ssoOptions));
    const store = await step('cannot open PostgreSQL (check LECTERN_DATABASE_URL)', () =>
      openPostgresStore({ connectionString: config.databaseUrl, isAuditOn: config.isAuditOn }),
    );
    onStop(() => store.close());
    const stopRetention = startAuditRetention({
      core: { store, clock: systemClock, ids: randomIds },
      keepDays: config.auditKeepDays,
      logger,
    });
    onStop(() => Promise.resolve(stopRetention()));
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
    const bus = createServiceBus({
      brokers: config.kafkaBrokers,
      topic: config.kafkaTopic,
      service: 'management',
      logger,
    });
    onStop(() => bus.close());

    const metrics = createProcessMetrics();
    const readiness = createReadiness([() => store.ping()]);
    const relayMetrics = registerRelayMetrics(metrics, { store, clock: systemClock });
    const relay = createOutboxRelay({
      store,
      bus,
      clock: systemClock,
      onPublished: relayMetrics.onPublished,
      onError: (err) => logger.error({ err }, 'relaying change events to Kafka failed; retrying'),
    });
    const stopWaking = store.onEventsCommitted(() => relay.wake());
    relay.start();
    onStop(async () => {
      stopWaking();
      await relay.stop();
    });
    const scheduler = startScheduler(core, {
      onError: (err) => logger.error({ err }, 'scheduled publishing or history retention failed'),
      history: historyRetention(config),
    });
    onStop(() => scheduler.stop());
    const tasks = startBackgroundTasks(core, {
      runnerId: `management-${process.pid}-${randomIds.uuid().slice(0, 8)}`,
      onError: (err, task) => logger.error({ err, task: task?.id }, 'background task failed'),
    });
    onStop(() => tasks.stop());

    // The assets origin first: the Management app's asset URLs and redirects need its URL.
    const assets = await step(
      `cannot listen on ${config.host}:${config.assetsPort} (check LECTERN_HOST, LECTERN_ASSETS_PORT)`,
      () =>
        listen(
          createAssetsServer(
            buildAssetsApp({ core, metrics, logger, readiness, blobs, imageLimits: managementImageLimits(config) }),
          ),
          {
            host: config.host,
            port: config.assetsPort,
          },
        ),
    );
    onStop(() => assets.close());
    // The editor app's live changes: every replica reads every event in a group of its own.
    const changes = createChangeHub();
    await step('cannot subscribe to the change events in Kafka (check LECTERN_KAFKA_BROKERS)', () =>
      changes.attach(bus),
    );
    const presence = createPresenceHub(core);
    const app = buildManagementApp({
      core,
      metrics,
      logger,
      readiness,
      operatorToken: config.operatorToken,
      blobs,
      rateLimits: managementRateLimits(config),
      isAssetFileOptionalOnUpdate: config.managementAssetFileOptionalOnUpdate,
      trustedProxies: config.trustedProxies,
      publicUrl: config.managementPublicUrl ?? null,
      linkMailer: linkMailerOf(config, logger),
      sso,
      isPasswordSignInEnabled: config.passwordSignIn,
      assetsOrigin: { publicUrl: config.assetsPublicUrl ?? null, listenerUrl: assets.url },
      tasks,
      recsTracking: createSqlRecsTracking({ db: store.db as never }),
      editorDir: defaultEditorDir,
      changes,
      presence,
    });
    const listening = await step(
      `cannot listen on ${config.host}:${config.port} (check LECTERN_HOST, LECTERN_PORT)`,
      () => listen(createManagementServer(app), { host: config.host, port: config.port, server }),
    );
    onStop(async () => {
      readiness.drain();
      // Open change streams end first, so the listener is not held for the grace period.
      await changes.close();
      presence.close();
      await listening.close();
    });
    logger.info(
      { url: listening.url, managementApi: `${listening.url}/v2`, editor: `${listening.url}/app/`, assets: assets.url },
      'management ready (asset binaries on their own port)',
    );
  },
});
