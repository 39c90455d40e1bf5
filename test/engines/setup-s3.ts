import type { TestProject } from 'vitest/node';
import { startForTests } from './engine.ts';
import { installCommand } from './engine-install.ts';
import { s3TestCredentials, startMinio } from './minio.ts';
import type {} from '@lectern/testing';

/** Vitest global setup: one MinIO server for the run; each test uses its own buckets. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = await startForTests({ name: 'MinIO', installHint: installCommand('minio'), start: startMinio });
  project.provide('s3Endpoint', engine.endpoint);
  project.provide('s3AccessKey', engine.endpoint ? s3TestCredentials.accessKey : '');
  project.provide('s3SecretKey', engine.endpoint ? s3TestCredentials.secretKey : '');
  return engine.stop;
}
