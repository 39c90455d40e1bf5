// The shapes a benchmark can run against, each started as separate processes on loopback.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '../../packages/testing/src/test-database.ts';
import { startCluster } from '../../test/cluster/cluster.ts';
import type { RunningEngine } from '../../test/engines/engine.ts';
import { startKafka } from '../../test/engines/kafka.ts';
import { s3TestCredentials, startMinio } from '../../test/engines/minio.ts';
import { freePort, startPostgres } from '../../test/engines/postgres.ts';

export type Shape = 'embedded' | 'cluster';

export interface Target {
  readonly managementUrl: string;
  /** Every Delivery (published channel) process. */
  readonly deliveryUrls: readonly string[];
  readonly operatorToken: string;
  /** A process serving the webhook worker's metrics (`/metrics`). */
  readonly metricsUrl: string;
  stop(): Promise<void>;
}

export interface TargetOptions {
  /** Runs the webhook worker too (cluster: a webhooks process), allowed to reach receivers on loopback. */
  readonly withWebhooks?: boolean;
}

const root = new URL('../..', import.meta.url).pathname;

/** `./lectern start` as a child process on free ports, in a fresh data directory, no demo. */
async function startEmbeddedTarget(options: TargetOptions = {}): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'lectern-bench-'));
  const operatorToken = randomBytes(24).toString('hex');
  const child = spawn(process.execPath, [join(root, 'services/lectern/src/cli.ts'), 'start'], {
    env: {
      ...process.env,
      LECTERN_DATA_DIR: dataDir,
      LECTERN_PORT_BASE: '0',
      LECTERN_DEMO: 'false',
      LECTERN_OPERATOR_TOKEN: operatorToken,
      LECTERN_LOG_LEVEL: 'warn',
      ...(options.withWebhooks ? { LECTERN_WEBHOOKS_ALLOW_PRIVATE: 'true' } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const info = join(dataDir, 'server.json');
  const deadline = Date.now() + 60_000;
  while (!existsSync(info)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('lectern start did not come up');
    await new Promise((r) => setTimeout(r, 100));
  }
  const urls = (JSON.parse(readFileSync(info, 'utf8')) as { urls: Record<string, string> }).urls;
  return {
    managementUrl: urls['management']!,
    deliveryUrls: [urls['delivery']!],
    operatorToken,
    metricsUrl: urls['management']!,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * PostgreSQL, Kafka and MinIO on loopback (the test engines' launchers; `./scripts/test` or
 * `./scripts/cluster` installs them), then Management, the indexer and two Delivery processes.
 */
async function startClusterTarget(options: TargetOptions = {}): Promise<Target> {
  const engines: RunningEngine[] = [];
  const stopEngines = async () => {
    for (const engine of engines.reverse()) {
      await engine.stop().catch(() => undefined);
      if (engine.dir) await rm(engine.dir, { recursive: true, force: true });
    }
  };
  try {
    for (const start of [startPostgres, startKafka, startMinio]) engines.push(await start());
    const [postgres, kafka, minio] = engines as [RunningEngine, RunningEngine, RunningEngine];
    const operatorToken = randomBytes(24).toString('hex');
    const port = freePort;
    const cluster = await startCluster({
      databaseUrl: await createTestDatabase(postgres.endpoint),
      kafkaBrokers: kafka.endpoint,
      kafkaTopic: 'lectern.change-events',
      s3: { endpoint: minio.endpoint, ...s3TestCredentials, bucket: 'lectern-assets' },
      operatorToken,
      logLevel: 'warn',
      ports: {
        management: await port(),
        indexer: await port(),
        deliveries: [
          { delivery: await port(), preview: await port() },
          { delivery: await port(), preview: await port() },
        ],
        ...(options.withWebhooks ? { webhooks: await port() } : {}),
      },
      isWebhooksPrivateAllowed: options.withWebhooks === true,
    });
    return {
      managementUrl: cluster.managementUrl,
      deliveryUrls: cluster.deliveries.map((d) => d.deliveryUrl),
      operatorToken,
      metricsUrl: cluster.webhooksUrl ?? cluster.managementUrl,
      async stop() {
        await cluster.stop();
        await stopEngines();
      },
    };
  } catch (error) {
    await stopEngines();
    throw error;
  }
}

export function startTarget(shape: Shape, options: TargetOptions = {}): Promise<Target> {
  return shape === 'embedded' ? startEmbeddedTarget(options) : startClusterTarget(options);
}
