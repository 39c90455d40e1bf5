// The cluster shape on one machine: PostgreSQL, Kafka and MinIO on loopback (the test engines'
// launchers), then Management, the indexer, two Delivery processes, a GraphQL one and the webhook
// worker, each its own process
// through its main.ts; a demo project with keys; every URL and key printed; child logs streamed
// with a prefix. Ctrl+C stops the services, then the engines. Run it through ./scripts/cluster,
// which installs Node, the dependencies and the engines first.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { randomIds, systemClock } from '../packages/core/src/index.ts';
import { openPostgresStore } from '../packages/store-sql/src/index.ts';
import { createTestDatabase } from '../packages/testing/src/test-database.ts';
import { seedDemoProject } from '../services/lectern/src/demo.ts';
import { startCluster, type RunningCluster } from '../test/cluster/cluster.ts';
import type { RunningEngine } from '../test/engines/engine.ts';
import { startKafka } from '../test/engines/kafka.ts';
import { s3TestCredentials, startMinio } from '../test/engines/minio.ts';
import { startOpenSearch } from '../test/engines/opensearch.ts';
import { startPostgres } from '../test/engines/postgres.ts';

const usage = `Usage: ./scripts/cluster [--port-base N] [--log-level LEVEL] [--keep-data]

Starts Lectern in the cluster shape on this machine, for trying it out: PostgreSQL, Apache Kafka,
MinIO and OpenSearch (the delivery index) on 127.0.0.1 (fresh, in temporary directories), then
each service as its own process:

  management    N      Management API (/v2, /v1), admin API (/admin), outbox relay to Kafka
                N+10   asset binaries (/assets/…, their own origin, never the console's)
  delivery-1    N+1    Delivery API          (preview N+2)
  delivery-2    N+6    Delivery API          (preview N+7)
  graphql-1     N+3    GraphQL API
  recommendations N+4  Smart Recommendations API (/api/v2/)
  indexer       N+5    /healthz /readyz /metrics only (delivery index and recommendation index)
  webhooks      N+8    /healthz /readyz /metrics only (delivers webhook notifications; private
                       addresses allowed, so receivers on this machine work)

It creates a demo project with keys, prints every URL and key, and streams the services' JSON logs
prefixed with their names. Ctrl+C stops the services (SIGTERM), then the engines, and deletes the
engines' data unless --keep-data.

Options:
  --port-base N      first port (default 4400)
  --log-level LEVEL  services' log level: fatal, error, warn, info, debug, trace, silent (default info)
  --keep-data        keep the engines' temporary directories
  -h, --help         this text`;

const { values: flags } = parseArgs({
  options: {
    'port-base': { type: 'string', default: '4400' },
    'log-level': { type: 'string', default: 'info' },
    'keep-data': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (flags.help) {
  console.log(usage);
  process.exit(0);
}
const base = Number(flags['port-base']);
if (!Number.isInteger(base) || base < 1024 || base > 65_000) {
  console.error(`--port-base must be a whole number from 1024 to 65000 (got ${flags['port-base']}).\n\n${usage}`);
  process.exit(2);
}

const say = (line: string) => process.stdout.write(`[cluster] ${line}\n`);
const engines: { name: string; engine: RunningEngine }[] = [];
let cluster: RunningCluster | null = null;
let stopping: Promise<void> | null = null;

function stopAll(code: number): Promise<void> {
  stopping ??= (async () => {
    if (cluster) {
      say('stopping the services');
      const codes = await cluster.stop();
      say(
        `services stopped: ${Object.entries(codes)
          .map(([n, c]) => `${n} ${c ?? 'killed'}`)
          .join(', ')}`,
      );
    }
    say('stopping the engines');
    for (const { engine } of engines.reverse()) {
      await engine.stop().catch(() => undefined);
      if (engine.dir && !flags['keep-data']) rmSync(engine.dir, { recursive: true, force: true });
    }
    process.exit(code);
  })();
  return stopping;
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

async function startEngine(name: string, start: () => Promise<RunningEngine>): Promise<RunningEngine> {
  const began = Date.now();
  const engine = await start().catch((error: unknown) => {
    throw new Error(`${name} could not start: ${(error as Error).message}`, { cause: error });
  });
  engines.push({ name, engine });
  say(`${name} ready at ${engine.endpoint} (${Date.now() - began} ms)${engine.dir ? `, data in ${engine.dir}` : ''}`);
  return engine;
}

async function main(): Promise<void> {
  say('starting PostgreSQL, Kafka, MinIO and OpenSearch on 127.0.0.1');
  // Settled, so that engines already up are known (and stopped) when another one fails.
  const started = await Promise.allSettled([
    startEngine('PostgreSQL', startPostgres),
    startEngine('Kafka', startKafka),
    startEngine('MinIO', startMinio),
    startEngine('OpenSearch', startOpenSearch),
  ]);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  const [postgres, kafka, minio, search] = started.map((s) => (s as PromiseFulfilledResult<RunningEngine>).value) as [
    RunningEngine,
    RunningEngine,
    RunningEngine,
    RunningEngine,
  ];
  const databaseUrl = await createTestDatabase(postgres.endpoint);
  const bucket = 'lectern-assets';
  const operatorToken = randomBytes(24).toString('hex');
  say(`database ${databaseUrl}; bucket ${bucket}; starting the services`);
  cluster = await startCluster({
    databaseUrl,
    kafkaBrokers: kafka.endpoint,
    kafkaTopic: 'lectern.change-events',
    s3: { endpoint: minio.endpoint, ...s3TestCredentials, bucket },
    operatorToken,
    searchUrl: search.endpoint,
    ports: {
      management: base,
      assets: base + 10,
      indexer: base + 5,
      recommendations: base + 4,
      deliveries: [
        { delivery: base + 1, preview: base + 2 },
        { delivery: base + 6, preview: base + 7 },
      ],
      webhooks: base + 8,
      graphqls: [base + 3],
    },
    // One machine for trying things out: receivers on localhost are the usual case.
    isWebhooksPrivateAllowed: true,
    logLevel: flags['log-level'],
    onLine: (name, line) => process.stdout.write(`[${name}] ${line}\n`),
  });

  const store = await openPostgresStore({ connectionString: databaseUrl, poolSize: 2 });
  const demo = await seedDemoProject({ store, clock: systemClock, ids: randomIds }).finally(() => store.close());
  const projectId = demo?.project.id ?? '<project id>';
  const key = (kind: string) => demo?.keys.find((k) => k.key.kind === kind)?.secret ?? `<${kind} key>`;
  const [d1, d2] = cluster.deliveries;
  const lines = [
    '',
    'Lectern is running in the cluster shape.',
    '',
    `  Management API     ${cluster.managementUrl}/v2   (admin API ${cluster.managementUrl}/admin)`,
    `  Asset binaries     ${cluster.assetsUrl}/assets/…   (the management process's second port)`,
    ...cluster.deliveries.map((d) => `  ${d.name.padEnd(18)} Delivery ${d.deliveryUrl}   Preview ${d.previewUrl}`),
    ...cluster.graphqls.map((g) => `  ${g.name.padEnd(18)} GraphQL ${g.url}/${projectId}`),
    `  indexer            ${cluster.indexerUrl}   (/healthz /readyz /metrics)`,
    `  webhooks           ${cluster.webhooksUrl ?? ''}   (/healthz /readyz /metrics; private addresses allowed)`,
    `  Recommendations    ${cluster.recommendationsUrl}/api/v2/   (kontent-recommendations baseUrl)`,
    `  PostgreSQL         ${databaseUrl}`,
    `  Kafka              ${kafka.endpoint}   topic lectern.change-events`,
    `  OpenSearch         ${search.endpoint}   delivery index (aliases lectern-delivery-<project id>)`,
    `  MinIO (S3)         ${minio.endpoint}   bucket ${bucket}, access key ${s3TestCredentials.accessKey}, secret key ${s3TestCredentials.secretKey}`,
    `  operator token     ${operatorToken}`,
    '',
    `Demo project "${demo?.project.name ?? ''}": ${projectId}`,
    ...(demo?.keys ?? []).map((k) => `  ${k.key.kind.padEnd(18)} ${k.secret}`),
    '',
    'Try:',
    `  curl ${d1?.deliveryUrl}/${projectId}/types`,
    `  curl -G ${cluster.graphqls[0]?.url}/${projectId} --data-urlencode 'query={ article_All { items { title } } }'`,
    `  curl -H "Authorization: Bearer ${key('preview_primary')}" ${d2?.previewUrl}/${projectId}/types`,
    `  curl -H "Authorization: Bearer ${key('management')}" ${cluster.managementUrl}/v2/projects/${projectId}/types`,
    '',
    'Stop with Ctrl+C.',
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch(async (error: unknown) => {
  process.stderr.write(`[cluster] ${(error as Error).message}\n`);
  await stopAll(1);
});
