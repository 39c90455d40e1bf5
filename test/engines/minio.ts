import { join } from 'node:path';
import { runDir, type RunningEngine } from './engine.ts';
import { installCommand, installedMinio } from './engine-install.ts';
import { httpAnswers, spawnEngine, stopEngine, waitUntilReady } from './engine-process.ts';
import { freePorts } from './postgres.ts';

/** Credentials of the test S3 server's root user; the server only ever listens on loopback. */
export const s3TestCredentials = { accessKey: 'lectern-test', secretKey: 'lectern-test-secret' } as const;

/**
 * A single-drive MinIO server (S3-compatible) on 127.0.0.1, built from source by `go install`
 * and cached per machine. Data and logs live in a fresh temporary directory; the logs are kept
 * when a start fails. The endpoint is the S3 base URL (path-style addressing). `host`: the address
 * to listen on and name in the endpoint instead (test/kube: the node's address pods reach).
 */
export async function startMinio(options: { host?: string } = {}): Promise<RunningEngine> {
  const host = options.host ?? '127.0.0.1';
  const binary = installedMinio();
  if (!binary) throw new Error(`MinIO is not installed; run: ${installCommand('minio')}`);
  const dir = runDir('minio');
  const [port, consolePort] = await freePorts(2);
  const url = `http://${host}:${port}`;
  const engine = spawnEngine({
    command: binary,
    args: [
      'server',
      join(dir, 'data'),
      '--address',
      `${host}:${port}`,
      '--console-address',
      `127.0.0.1:${consolePort}`,
    ],
    log: join(dir, 'minio.log'),
    cwd: dir,
    env: {
      MINIO_ROOT_USER: s3TestCredentials.accessKey,
      MINIO_ROOT_PASSWORD: s3TestCredentials.secretKey,
      // No web console, no update checks, no anonymous usage reports: the machine has no network.
      MINIO_BROWSER: 'off',
      MINIO_UPDATE: 'off',
      MINIO_CALLHOME_ENABLE: 'off',
    },
  });
  await waitUntilReady({
    engine,
    what: 'MinIO',
    timeoutMs: 60_000,
    isReady: () => httpAnswers(`${url}/minio/health/ready`),
  });
  return { endpoint: url, pid: engine.child.pid, dir, stop: () => stopEngine(engine) };
}
