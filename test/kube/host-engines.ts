import { rmSync } from 'node:fs';
import { createTestDatabase } from '@lectern/testing';
import { startKafka } from '../engines/kafka.ts';
import { s3TestCredentials, startMinio } from '../engines/minio.ts';
import { startOpenSearch } from '../engines/opensearch.ts';
import { startPostgres } from '../engines/postgres.ts';
import type { RunningEngine } from '../engines/engine.ts';

/**
 * The four engines the chart needs, as host processes listening on the cluster node's address,
 * which both the pods and this test reach (docs/kubernetes.md, "Verified on a real cluster": the
 * same binaries every other suite runs, started in seconds, with their logs on the host, instead of
 * engine images and volumes the test would have to build and wait for in a one-node cluster whose
 * two cores they would share with the chart's pods).
 */
export interface HostEngines {
  /** A fresh database on the PostgreSQL server, for the Secret's `database-url`. */
  readonly databaseUrl: string;
  readonly kafkaBrokers: string;
  readonly s3Endpoint: string;
  readonly s3AccessKey: string;
  readonly s3SecretKey: string;
  readonly searchUrl: string;
  stop(): Promise<void>;
}

/** Starts PostgreSQL, Kafka, MinIO and OpenSearch on `host`, one after the other (2 shared cores). */
export async function startHostEngines(host: string): Promise<HostEngines> {
  const started: RunningEngine[] = [];
  // Stopped engines leave nothing: their run directories (data and logs) go too.
  const stop = async () => {
    await Promise.all(started.map((e) => e.stop()));
    for (const e of started) if (e.dir) rmSync(e.dir, { recursive: true, force: true });
  };
  try {
    const start = async (run: () => Promise<RunningEngine>) => {
      const engine = await run();
      started.push(engine);
      return engine.endpoint;
    };
    const postgres = await start(() => startPostgres({ host }));
    const kafkaBrokers = await start(() => startKafka({ host }));
    const s3Endpoint = await start(() => startMinio({ host }));
    const searchUrl = await start(() => startOpenSearch({ host }));
    return {
      databaseUrl: await createTestDatabase(postgres),
      kafkaBrokers,
      s3Endpoint,
      s3AccessKey: s3TestCredentials.accessKey,
      s3SecretKey: s3TestCredentials.secretKey,
      searchUrl,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
