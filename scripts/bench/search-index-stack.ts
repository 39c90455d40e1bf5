// What the search-index benchmark runs against: the engines (PostgreSQL, Kafka, MinIO, OpenSearch,
// each started once by the test engine launchers), and per item count and index a fresh copy of the
// cached seed, its timed `lectern index rebuild`, and the cluster shape's services (Management with
// the outbox relay, the indexer, one Delivery process), each its own process, on that index.
import { execFile as execFileCb } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startCluster, type RunningCluster } from '../../test/cluster/cluster.ts';
import type { RunningEngine } from '../../test/engines/engine.ts';
import { startKafka } from '../../test/engines/kafka.ts';
import { s3TestCredentials, startMinio } from '../../test/engines/minio.ts';
import { startOpenSearch } from '../../test/engines/opensearch.ts';
import { freePort, startPostgres } from '../../test/engines/postgres.ts';
import { prepareSeed, type Seeded } from './delivery-setup.ts';

const execFile = promisify(execFileCb);
const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'services/lectern/src/cli.ts');

export type IndexKind = 'sql' | 'opensearch';

export interface Engines {
  readonly postgres: RunningEngine;
  readonly kafka: RunningEngine;
  readonly minio: RunningEngine;
  readonly search: RunningEngine;
  stop(): Promise<void>;
}

/** The four engines, one after another (each start is CPU-heavy on a small machine). */
export async function startEngines(): Promise<Engines> {
  const started: RunningEngine[] = [];
  const stop = async () => {
    for (const engine of started.reverse()) {
      await engine.stop().catch(() => undefined);
      if (engine.dir) rmSync(engine.dir, { recursive: true, force: true });
    }
  };
  try {
    for (const start of [startPostgres, startKafka, startMinio, startOpenSearch]) started.push(await start());
  } catch (error) {
    await stop();
    throw error;
  }
  const [postgres, kafka, minio, search] = started as [RunningEngine, RunningEngine, RunningEngine, RunningEngine];
  return { postgres, kafka, minio, search, stop };
}

/** The newest PostgreSQL client tool (psql) beside the server the test engines run. */
async function psql(databaseUrl: string, statement: string): Promise<void> {
  const { stdout } = await execFile('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin/psql | sort -V | tail -n 1']);
  await execFile(stdout.trim() || 'psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-c', statement, databaseUrl]);
}

export interface Rebuild {
  /** Wall time of `lectern index rebuild --project …`, in seconds. */
  readonly seconds: number;
  /** Wall time of `lectern project list` on the same database: process start and store open. */
  readonly baselineSeconds: number;
}

export interface Prepared {
  readonly seed: Seeded;
  readonly rebuild: Rebuild;
  /** The index names' prefix of this run (OpenSearch), so sizes never share an index. */
  readonly prefix: string;
}

/**
 * A fresh database holding the cached seed of `items` items, with its change events counted as
 * relayed (a cluster that has run a while relayed them long ago; relaying the seed's 3 events per
 * item through Kafka would only make the indexer skip them, as the rebuild already covers them),
 * then `lectern index rebuild` for `index`, timed.
 */
export async function prepareRun(options: { engines: Engines; items: number; index: IndexKind }): Promise<Prepared> {
  const { engines, items, index } = options;
  const seed = await prepareSeed({ engine: 'postgres', items, postgresAdminUrl: engines.postgres.endpoint });
  const databaseUrl = seed.databaseUrl ?? '';
  await psql(
    databaseUrl,
    `insert into outbox_relay (project_id, relayed_seq) select project_id, last_seq from project_sequences
     on conflict (project_id) do update set relayed_seq = excluded.relayed_seq`,
  );
  const prefix = `bench-${items}-${Date.now()}`;
  const indexFlags =
    index === 'sql'
      ? []
      : ['--delivery-index', 'opensearch', '--search-url', engines.search.endpoint, '--search-index-prefix', prefix];
  const time = async (args: string[]) => {
    const started = performance.now();
    await execFile(process.execPath, [cli, ...args, '--data-dir', seed.dataDir, '--database-url', databaseUrl], {
      maxBuffer: 16 * 1024 * 1024,
    });
    return (performance.now() - started) / 1000;
  };
  const baselineSeconds = await time(['project', 'list']);
  const seconds = await time(['index', 'rebuild', '--project', seed.projectId, '--no-progress', ...indexFlags]);
  // A restored database has no planner statistics until autovacuum gets to it; a server that has
  // run a while has them, so the benchmark reads with them.
  await psql(databaseUrl, 'ANALYZE');
  return { seed, rebuild: { seconds, baselineSeconds }, prefix };
}

export interface Stack {
  readonly cluster: RunningCluster;
  readonly deliveryUrl: string;
  readonly deliveryPid: number;
  readonly operatorToken: string;
  stop(): Promise<void>;
}

/**
 * The cluster shape's Management, indexer and one Delivery process on the prepared database and
 * `index`: Delivery's response cache off (every measured request reads the index), no rate limits.
 */
export async function startStack(options: { engines: Engines; prepared: Prepared; index: IndexKind }): Promise<Stack> {
  const { engines, prepared, index } = options;
  // The services inherit this process's environment (test/cluster/service-process.ts).
  Object.assign(process.env, {
    LECTERN_DELIVERY_CACHE_ENTRIES: '0',
    LECTERN_DELIVERY_UNCACHED_PER_SECOND: '0',
    LECTERN_DELIVERY_UNCACHED_PER_MINUTE: '0',
    LECTERN_MANAGEMENT_PER_SECOND: '0',
    LECTERN_MANAGEMENT_PER_MINUTE: '0',
    LECTERN_MANAGEMENT_PER_HOUR: '0',
    LECTERN_SEARCH_INDEX_PREFIX: prepared.prefix,
  });
  const operatorToken = `bench-operator-${Date.now()}-${process.pid}-0123456789`;
  const cluster = await startCluster({
    databaseUrl: prepared.seed.databaseUrl ?? '',
    kafkaBrokers: engines.kafka.endpoint,
    kafkaTopic: `lectern.bench-${prepared.prefix}`,
    s3: { endpoint: engines.minio.endpoint, ...s3TestCredentials, bucket: 'lectern-bench-assets' },
    operatorToken,
    ...(index === 'opensearch' ? { searchUrl: engines.search.endpoint } : {}),
    logLevel: 'warn',
    ports: {
      management: await freePort(),
      indexer: await freePort(),
      deliveries: [{ delivery: await freePort(), preview: await freePort() }],
    },
  });
  const delivery = cluster.deliveries[0];
  const deliveryProcess = cluster.processes.find((p) => p.name === delivery?.name);
  if (delivery === undefined || deliveryProcess?.child.pid === undefined) throw new Error('no Delivery process');
  return {
    cluster,
    deliveryUrl: delivery.deliveryUrl,
    deliveryPid: deliveryProcess.child.pid,
    operatorToken,
    async stop() {
      await cluster.stop();
    },
  };
}

/** Deletes a run's OpenSearch indices and its database's data directory. */
export async function cleanUpRun(engines: Engines, prepared: Prepared): Promise<void> {
  await fetch(`${engines.search.endpoint}/${prepared.prefix}-*`, { method: 'DELETE' }).catch(() => undefined);
  rmSync(prepared.seed.dataDir, { recursive: true, force: true });
}
