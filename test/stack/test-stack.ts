import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFsBlobStore } from '@lectern/blob-fs';
import { buildDeliveryApp, type DeliveryAppOptions } from '@lectern/delivery';
import { createLogger, createProcessMetrics, createReadiness, listen } from '@lectern/http-kit';
import {
  createIndexer,
  startBackgroundTasks,
  type BlobStore,
  type DeliveryIndexReader,
  type DeliveryIndexWriter,
  type Indexer,
} from '@lectern/core';
import { createSqlIndex } from '@lectern/index-sql';
import { buildAssetsApp, buildManagementApp, createAssetsServer, createManagementServer } from '@lectern/management';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { startEventPipeline, type EventPipeline } from '../../services/lectern/src/event-pipeline.ts';

/**
 * Management API + delivery index + indexer + Delivery and Preview apps on one in-memory store,
 * with one project and a management, delivery and preview key: write through Management, call
 * `catchUp()`, read through Delivery (`delivery.inject`) or the index.
 */
type DeliveryApp = ReturnType<typeof buildDeliveryApp>;

export interface TestStack {
  readonly core: TestCore;
  readonly projectId: string;
  /** `http://127.0.0.1:<port>/v2`: the Management SDK's baseUrl. */
  readonly managementBaseUrl: string;
  /** `http://127.0.0.1:<port>`: the assets origin, where asset `url`s point. */
  readonly assetsUrl: string;
  readonly managementKey: string;
  readonly deliveryKey: string;
  readonly previewKey: string;
  readonly index: DeliveryIndexReader & DeliveryIndexWriter;
  readonly indexer: Indexer;
  /** The Management API's blob store (a temporary directory, removed on close). */
  readonly blobs: BlobStore;
  /** That directory (blob-fs layout: `data/`, `meta/`, and `tmp/` for bodies being written). */
  readonly blobDir: string;
  /** Delivery API (published) and Delivery Preview API, for `inject()`. */
  readonly delivery: DeliveryApp;
  readonly preview: DeliveryApp;
  /** Plain HTTP against `/v2/projects/<project>` + path with the management key. */
  managementFetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * The same, for setting up tests: sends `body` (JSON, or raw bytes for a Buffer), throws on a
   * status of 300 or more, and returns the parsed JSON answer (`{}` when empty).
   */
  managementJson(
    path: string,
    options?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Record<string, unknown>>;
  /** Indexes every pending change event. */
  catchUp(): Promise<void>;
  /**
   * Starts the embedded change-event path (relay → in-process bus → indexer), so writes reach
   * the index without `catchUp`.
   */
  startEvents(): Promise<void>;
  close(): Promise<void>;
}

export interface TestStackOptions {
  /** The core to serve (e.g. on PostgreSQL); default: a fresh in-memory PGlite one. */
  readonly core?: TestCore;
  /** Delivery and Preview HTTP options (rate limits, wait bound, …); default: the app's defaults. */
  readonly deliveryHttp?: DeliveryAppOptions['http'];
  /**
   * A search engine (OpenSearch) URL: the delivery index lives there (index-elasticsearch, in
   * indices of its own, dropped on close) instead of in SQL tables. Empty or absent: the SQL index.
   */
  readonly searchUrl?: string;
  /** Start of the search index names (default: a fresh random one). */
  readonly searchIndexPrefix?: string;
}

/** The delivery index of a test stack, and how to drop it. */
async function openIndex(core: TestCore, searchUrl: string | undefined, searchIndexPrefix: string | undefined) {
  if (searchUrl === undefined || searchUrl === '')
    return { index: createSqlIndex({ db: core.store.db }), drop: async (_projectId: string) => {} };
  // Loaded on use: the search clients take a second or more to import.
  const { connectSearchEngine } = await import('@lectern/search-engine');
  const { openSearchDeliveryIndex } = await import('@lectern/engines');
  const engine = connectSearchEngine({ flavour: 'opensearch', url: searchUrl });
  const prefix = searchIndexPrefix ?? `test-stack-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const index = openSearchDeliveryIndex({ engine, db: core.store.db, prefix });
  return {
    index,
    drop: async (projectId: string) => {
      await index.dropProject(projectId);
      await engine.close();
    },
  };
}

export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const core = options.core ?? (await openTestCore());
  const blobDir = await mkdtemp(join(tmpdir(), 'lectern-test-stack-'));
  const shared = {
    metrics: createProcessMetrics(),
    readiness: createReadiness([() => core.store.ping()]),
    logger: createLogger({ level: 'silent' }),
  };
  const tasks = startBackgroundTasks(core, { runnerId: `test-stack-${process.pid}`, intervalMs: 200 });
  const blobs = openFsBlobStore({ root: blobDir });
  const assets = await listen(createAssetsServer(buildAssetsApp({ ...shared, core, blobs })), {
    host: '127.0.0.1',
    port: 0,
  });
  const management = buildManagementApp({
    ...shared,
    core,
    tasks,
    operatorToken: null,
    blobs,
    assetsOrigin: { listenerUrl: assets.url },
    rateLimits: { perSecond: 1_000_000, perMinute: 1_000_000, perHour: 1_000_000 },
  });
  const listening = await listen(createManagementServer(management), { host: '127.0.0.1', port: 0 });
  const { projectId, keys } = await seedProject(core, ['management', 'delivery_primary', 'preview_primary']);
  const { index, drop } = await openIndex(core, options.searchUrl, options.searchIndexPrefix);
  const assetsBase = `${assets.url}/assets`;
  const indexer = createIndexer({ core, index, assetsBase });
  let events: EventPipeline | null = null;
  const deliveryShared = {
    ...shared,
    core,
    index,
    signals: core.store.signals,
    ...(options.deliveryHttp === undefined ? {} : { http: options.deliveryHttp }),
  };
  const delivery = buildDeliveryApp({ ...deliveryShared, channel: 'production' });
  const preview = buildDeliveryApp({ ...deliveryShared, channel: 'preview' });
  const managementBaseUrl = `${listening.url}/v2`;
  const managementKey = keys.management?.value ?? '';
  const managementFetch = (path: string, init: RequestInit = {}) =>
    fetch(`${managementBaseUrl}/projects/${projectId}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${managementKey}`,
        'content-type': 'application/json',
        ...(init.headers ?? {}),
      },
    });
  return {
    core,
    projectId,
    managementBaseUrl,
    assetsUrl: assets.url,
    managementKey,
    deliveryKey: keys.delivery_primary?.value ?? '',
    previewKey: keys.preview_primary?.value ?? '',
    index,
    indexer,
    blobs,
    blobDir,
    delivery,
    preview,
    managementFetch,
    async managementJson(path, { method = 'POST', body, headers = {} } = {}) {
      const response = await managementFetch(path, {
        method,
        headers,
        ...(body === undefined ? {} : { body: body instanceof Buffer ? new Uint8Array(body) : JSON.stringify(body) }),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    },
    catchUp: () => indexer.catchUp(projectId),
    async startEvents() {
      events ??= await startEventPipeline({ core, index, assetsBase });
    },
    async close() {
      await events?.stop();
      await tasks.stop();
      await delivery.close();
      await preview.close();
      await listening.close();
      await assets.close();
      await drop(projectId);
      await core.store.close();
      await rm(blobDir, { recursive: true, force: true });
    },
  };
}
