import { z } from 'zod';
import { port, sharedSettings, type Setting } from '@lectern/config';

/**
 * The defaults table of the Management service in the cluster shape (environment only; secrets
 * also as `<NAME>_FILE`).
 */
export const managementSettings = {
  databaseUrl: sharedSettings.databaseUrl,
  s3Endpoint: {
    env: 'LECTERN_S3_ENDPOINT',
    schema: z.string().url(),
    doc: 'Base URL of the S3 API, e.g. http://minio:9000 or https://s3.eu-west-1.amazonaws.com.',
  },
  s3Region: { env: 'LECTERN_S3_REGION', schema: z.string().min(1), default: 'us-east-1', doc: 'S3 region.' },
  s3Bucket: {
    env: 'LECTERN_S3_BUCKET',
    schema: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'not a valid bucket name'),
    default: 'lectern-assets',
    doc: 'Bucket of asset binaries (created when missing).',
  },
  s3AccessKey: { env: 'LECTERN_S3_ACCESS_KEY', schema: z.string().min(1), isSecret: true, doc: 'S3 access key.' },
  s3SecretKey: { env: 'LECTERN_S3_SECRET_KEY', schema: z.string().min(1), isSecret: true, doc: 'S3 secret key.' },
  kafkaBrokers: sharedSettings.kafkaBrokers,
  kafkaTopic: sharedSettings.kafkaTopic,
  host: sharedSettings.host,
  port: { env: 'LECTERN_PORT', schema: port, default: '4400', doc: 'Port of the Management API (0: a free one).' },
  operatorToken: {
    env: 'LECTERN_OPERATOR_TOKEN',
    schema: z.string().min(16),
    isSecret: true,
    doc: 'Token of the admin API (/admin), at least 16 characters.',
  },
  logLevel: sharedSettings.logLevel,
} satisfies Record<string, Setting<unknown>>;
