import { z } from 'zod';
import { port, type Setting } from '@lectern/config';

/** `host:port[,host:port…]`, the Kafka bootstrap brokers. */
const brokerList = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'each broker must be host:port')).min(1));

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * The defaults table of the Management service in the cluster shape (environment only; secrets
 * also as `<NAME>_FILE`).
 */
export const managementSettings = {
  databaseUrl: {
    env: 'LECTERN_DATABASE_URL',
    schema: z.string().url(),
    isSecret: true,
    doc: 'PostgreSQL URL, e.g. postgres://user:pass@db:5432/lectern.',
  },
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
  kafkaBrokers: {
    env: 'LECTERN_KAFKA_BROKERS',
    schema: brokerList,
    doc: 'Kafka bootstrap brokers, comma-separated host:port.',
  },
  kafkaTopic: {
    env: 'LECTERN_KAFKA_TOPIC',
    schema: z.string().min(1),
    default: 'lectern.change-events',
    doc: 'Kafka topic of change events.',
  },
  host: { env: 'LECTERN_HOST', schema: z.string().min(1), default: '127.0.0.1', doc: 'Address to bind.' },
  port: { env: 'LECTERN_PORT', schema: port, default: '4400', doc: 'Port of the Management API (0: a free one).' },
  operatorToken: {
    env: 'LECTERN_OPERATOR_TOKEN',
    schema: z.string().min(16),
    isSecret: true,
    doc: 'Token of the admin API (/admin), at least 16 characters.',
  },
  logLevel: {
    env: 'LECTERN_LOG_LEVEL',
    schema: logLevel,
    default: 'info',
    doc: 'One of fatal, error, warn, info, debug, trace, silent.',
  },
} satisfies Record<string, Setting<unknown>>;
