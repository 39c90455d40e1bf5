import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { openFsBlobStore } from '@lectern/blob-fs';
import { ManagementClient } from '@kontent-ai/management-sdk';
import { createLogger, createProcessMetrics, createReadiness, listen } from '@lectern/http-kit';
import { startBackgroundTasks, type BlobStore, type Store } from '@lectern/core';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { buildManagementApp, createManagementServer, type ManagementAppOptions } from '../app.ts';
import { buildAssetsApp, createAssetsServer, type AssetsAppOptions } from '../assets-app.ts';
import { defaultImageLimits } from '../images/image-cache.ts';

/** A Management API listening on a free port over an in-memory store, with one project and its key. */
export interface TestManagement {
  readonly core: TestCore;
  /** `http://127.0.0.1:<port>/v2`, the SDK's baseUrl. */
  readonly baseUrl: string;
  /** `http://127.0.0.1:<port>`, the assets origin (asset binaries) on a port of its own. */
  readonly assetsUrl: string;
  readonly projectId: string;
  readonly apiKey: string;
  /** The blob store the app writes to (a fresh directory unless `blobs` was given). */
  readonly blobs: BlobStore;
  /** The directory of the default blob-fs store (unused when `blobs` was given). */
  readonly blobDir: string;
  /** An official SDK client for the project (no retries, so errors surface at once). */
  readonly client: ManagementClient;
  /** Plain HTTP against `/v2/projects/<project>` + path with the key, for what the SDK cannot send. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestManagement(
  options: Partial<
    Pick<
      ManagementAppOptions & AssetsAppOptions,
      | 'rateLimits'
      | 'personRateLimits'
      | 'maxFileBytes'
      | 'isAssetFileOptionalOnUpdate'
      | 'trustedProxies'
      | 'publicUrl'
      | 'operatorToken'
      | 'imageLimits'
      | 'linkMailer'
      | 'signInThrottle'
      | 'signInRecorder'
      | 'sso'
      | 'isPasswordSignInEnabled'
    >
  > & {
    /** LECTERN_ASSETS_PUBLIC_URL: the assets origin asset `url`s name (default: the assets listener). */
    assetsPublicUrl?: string;
    /** Wraps the store the app uses (e.g. to count queries); `core.store` stays the plain one. */
    wrapStore?: (store: Store) => Store;
    /** The core to serve (e.g. on PostgreSQL); default: a fresh in-memory PGlite one. */
    core?: TestCore;
    /** Run background tasks in this server (default true; false: another runner must). */
    isRunningTasks?: boolean;
    /** The blob store to serve (e.g. on MinIO); default: blob-fs in a fresh directory. */
    blobs?: BlobStore;
  } = {},
): Promise<TestManagement> {
  const core = options.core ?? (await openTestCore());
  const blobDir = await mkdtemp(join(tmpdir(), 'lectern-test-blobs-'));
  const blobs = options.blobs ?? openFsBlobStore({ root: blobDir });
  const tasks =
    options.isRunningTasks === false
      ? null
      : startBackgroundTasks(core, { runnerId: `test-${randomUUID()}`, intervalMs: 200 });
  const appCore = options.wrapStore ? { ...core, store: options.wrapStore(core.store) } : core;
  const shared = {
    metrics: createProcessMetrics(),
    readiness: createReadiness([() => core.store.ping()]),
    logger: createLogger({ level: 'silent' }),
  };
  // The test clock stands still, so every transformation would fall in one second; tests of the limit set it.
  const imageLimits = options.imageLimits ?? { ...defaultImageLimits, transformsPerSecond: 0 };
  const assets = await listen(createAssetsServer(buildAssetsApp({ ...shared, core: appCore, blobs, imageLimits })), {
    host: '127.0.0.1',
    port: 0,
  });
  const app = buildManagementApp({
    ...shared,
    tasks,
    core: appCore,
    operatorToken: options.operatorToken ?? null,
    blobs,
    assetsOrigin: { publicUrl: options.assetsPublicUrl ?? null, listenerUrl: assets.url },
    ...(options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes }),
    ...(options.isAssetFileOptionalOnUpdate === undefined
      ? {}
      : { isAssetFileOptionalOnUpdate: options.isAssetFileOptionalOnUpdate }),
    ...(options.trustedProxies === undefined ? {} : { trustedProxies: options.trustedProxies }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(options.linkMailer ? { linkMailer: options.linkMailer } : {}),
    ...(options.signInThrottle ? { signInThrottle: options.signInThrottle } : {}),
    ...(options.signInRecorder ? { signInRecorder: options.signInRecorder } : {}),
    ...(options.sso ? { sso: options.sso } : {}),
    ...(options.isPasswordSignInEnabled === undefined
      ? {}
      : { isPasswordSignInEnabled: options.isPasswordSignInEnabled }),
    // Tests send bursts; the rate-limit test sets its own limits.
    rateLimits: options.rateLimits ?? { perSecond: 1_000_000, perMinute: 1_000_000, perHour: 1_000_000 },
    ...(options.personRateLimits ? { personRateLimits: options.personRateLimits } : {}),
  });
  const listening = await listen(createManagementServer(app), { host: '127.0.0.1', port: 0 });
  const { projectId, keys } = await seedProject(core, ['management']);
  const apiKey = keys.management?.value as string;
  const baseUrl = `${listening.url}/v2`;
  return {
    core,
    baseUrl,
    assetsUrl: assets.url,
    projectId,
    apiKey,
    blobs,
    blobDir,
    client: new ManagementClient({ environmentId: projectId, apiKey, baseUrl, retryStrategy: { maxAttempts: 0 } }),
    fetch: (path, init = {}) =>
      fetch(`${baseUrl}/projects/${projectId}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
      }),
    async close() {
      await listening.close();
      await assets.close();
      await tasks?.stop();
      await core.store.close();
      await rm(blobDir, { recursive: true, force: true });
    },
  };
}
