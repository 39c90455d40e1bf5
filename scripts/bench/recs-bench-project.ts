// A project behind a Recommendations API on loopback, for the Smart Recommendations benchmark:
// on PGlite with pgvector (the embedded shape) or on PostgreSQL with OpenSearch's k-NN (the
// cluster shape's index; both engines started from test/engines, installed per machine).
import {
  createApiKey,
  createProject,
  operator,
  randomIds,
  systemClock,
  type CoreDeps,
} from '../../packages/core/src/index.ts';
import type { EmbeddingProvider } from '../../packages/core/src/index.ts';
import { createLogger, createProcessMetrics, createReadiness, listen } from '../../packages/http-kit/src/index.ts';
import { buildRecommendationsApp } from '../../services/recommendations/src/index.ts';
import { openSearchRecs } from '../../packages/engines/src/index.ts';
import { recsIndexNames } from '../../packages/recs-search/src/index.ts';
import { connectSearchEngine } from '../../packages/search-engine/src/index.ts';
import { createSqlRecs } from '../../packages/recs-sql/src/index.ts';
import { openPgliteStore, openPostgresStore, type SqlStore } from '../../packages/store-sql/src/index.ts';
import { createTestDatabase } from '../../packages/testing/src/test-database.ts';
import { startOpenSearch } from '../../test/engines/opensearch.ts';
import { startPostgres, type RunningEngine } from '../../test/engines/index.ts';

export type BenchEngine = 'pgvector' | 'knn';

let clusterEngines: Promise<{ postgres: RunningEngine; search: RunningEngine }> | null = null;

/**
 * PostgreSQL and OpenSearch for the k-NN runs, started once. OpenSearch keeps the tests' 512 MiB
 * heap: with its stock 1 GiB, young collections came half as often but took 23 ms instead of 9,
 * and the p99 of every request rose.
 */
function engines() {
  clusterEngines ??= Promise.all([startPostgres(), startOpenSearch()]).then(([postgres, search]) => ({
    postgres,
    search,
  }));
  return clusterEngines;
}

export async function stopBenchEngines(): Promise<void> {
  if (clusterEngines === null) return;
  const { postgres, search } = await clusterEngines;
  await Promise.all([postgres.stop(), search.stop()]);
}

/** OpenSearch's garbage collections so far (its pauses are in every search's latency). */
async function openSearchGc(url: string): Promise<string> {
  type Collector = { collection_count: number; collection_time_in_millis: number };
  const stats = (await (await fetch(`${url}/_nodes/stats/jvm`)).json()) as {
    nodes: Record<string, { jvm: { gc: { collectors: Record<string, Collector> } } }>;
  };
  const collectors = Object.values(stats.nodes)[0]?.jvm.gc.collectors ?? {};
  return Object.entries(collectors)
    .map(([name, c]) => `OpenSearch GC ${name}: ${c.collection_count} collections, ${c.collection_time_in_millis} ms`)
    .join('; ');
}

export async function openBenchProject(options: {
  engine: BenchEngine;
  embedder: EmbeddingProvider;
  /** PGlite's shared buffers in MiB (default: the product's). */
  pgliteBuffersMib?: number;
}) {
  const { embedder } = options;
  let store: SqlStore;
  let searchUrl: string | null = null;
  const prefix = `bench-${Date.now()}`;
  let recs: Awaited<ReturnType<typeof createSqlRecs>> | Awaited<ReturnType<typeof openSearchRecs>>;
  if (options.engine === 'pgvector') {
    store = await openPgliteStore(
      options.pgliteBuffersMib === undefined ? {} : { sharedBuffersMib: options.pgliteBuffersMib },
    );
    recs = await createSqlRecs({ db: store.db });
  } else {
    const { postgres, search } = await engines();
    searchUrl = search.endpoint;
    store = await openPostgresStore({ connectionString: await createTestDatabase(postgres.endpoint) });
    recs = await openSearchRecs({
      engine: connectSearchEngine({ flavour: 'opensearch', url: search.endpoint }),
      db: store.db,
      prefix,
      dimensions: embedder.dimensions,
    });
  }
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  const project = await createProject(core, { actor: operator, name: 'Bench' });
  const key = await createApiKey(core, { actor: operator, projectId: project.id, kind: 'recommendations' });
  const app = buildRecommendationsApp({
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
    engine: { core, reader: recs.reader, tracking: recs.tracking, embedder },
  });
  const listening = await listen(app, { host: '127.0.0.1', port: 0 });
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${listening.url}/api/v2/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    const text = await response.text();
    return text === '' ? [] : ((JSON.parse(text) as { codename: string }[]).map((i) => i.codename) as string[]);
  };
  const close = async () => {
    await listening.close();
    if ('close' in recs) await recs.close();
    await store.close();
  };
  /** p50 and p99 ms of trivial round trips to the engines (what a request cannot go below). */
  async function floor(): Promise<string> {
    const time = async (what: string, call: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = -10; i < 200; i++) {
        const t0 = performance.now();
        await call();
        if (i >= 0) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      return `${what} p50 ${times[100]!.toFixed(2)} ms, p99 ${times[198]!.toFixed(2)} ms`;
    };
    const parts = [await time('SQL ping', () => store.ping())];
    if (searchUrl !== null) {
      parts.push(
        await time('OpenSearch empty search', () => fetch(`${searchUrl}/_search?size=0`).then((r) => r.text())),
      );
      parts.push(await openSearchGc(searchUrl));
    }
    return parts.join('; ');
  }
  /**
   * After a bulk load: merges the k-NN index into one segment (Lucene searches each segment's HNSW
   * graph in turn; a load in 100 refreshed batches leaves dozens). Returns the segment counts.
   */
  async function forceMerge(): Promise<string> {
    if (searchUrl === null) return '';
    const index = recsIndexNames(prefix, embedder.dimensions).entries;
    const segments = async () =>
      ((await (await fetch(`${searchUrl}/_cat/segments/${index}?format=json`)).json()) as unknown[]).length;
    const before = await segments();
    await fetch(`${searchUrl}/${index}/_forcemerge?max_num_segments=1`, { method: 'POST' });
    // The merged-away segments stay listed (and searched) until the next refresh.
    await fetch(`${searchUrl}/${index}/_refresh`, { method: 'POST' });
    return `k-NN index force-merged from ${before} segments to ${await segments()}`;
  }
  return {
    store,
    core,
    projectId: project.id,
    recs,
    post,
    close,
    floor,
    forceMerge,
    url: listening.url,
    key: key.secret,
  };
}
