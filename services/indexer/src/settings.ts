import { z } from 'zod';
import { port, type Setting } from '@lectern/config';

/**
 * The defaults table of the indexer in the cluster shape: it consumes change events from Kafka
 * and writes the SQL delivery index in PostgreSQL. Environment only; secrets also as `<NAME>_FILE`.
 */
export const indexerSettings = {
  databaseUrl: {
    env: 'LECTERN_DATABASE_URL',
    schema: z.string().url(),
    isSecret: true,
    doc: 'PostgreSQL URL (store and delivery index), e.g. postgres://user:pass@db:5432/lectern.',
  },
  kafkaBrokers: {
    env: 'LECTERN_KAFKA_BROKERS',
    schema: z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'each broker must be host:port')).min(1)),
    doc: 'Kafka bootstrap brokers, comma-separated host:port.',
  },
  kafkaTopic: {
    env: 'LECTERN_KAFKA_TOPIC',
    schema: z.string().min(1),
    default: 'lectern.change-events',
    doc: 'Kafka topic of change events.',
  },
  /** Rendered into every asset URL of the delivery documents. */
  assetsBaseUrl: {
    env: 'LECTERN_ASSETS_BASE_URL',
    schema: z
      .string()
      .url()
      .transform((u) => u.replace(/\/+$/, '')),
    doc: 'Public URL of asset binaries: the Management service URL + /assets, e.g. https://manage.example.com/assets.',
  },
  host: { env: 'LECTERN_HOST', schema: z.string().min(1), default: '127.0.0.1', doc: 'Address to bind.' },
  port: {
    env: 'LECTERN_PORT',
    schema: port,
    default: '4405',
    doc: 'Port of /healthz, /readyz and /metrics (0: a free one).',
  },
  logLevel: {
    env: 'LECTERN_LOG_LEVEL',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    doc: 'One of fatal, error, warn, info, debug, trace, silent.',
  },
} satisfies Record<string, Setting<unknown>>;
