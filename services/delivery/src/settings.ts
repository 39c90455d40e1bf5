import { z } from 'zod';
import { port, type Setting } from '@lectern/config';

/**
 * The defaults table of the Delivery service in the cluster shape: one process serves the
 * Delivery API and the Delivery Preview API on two ports, reading the SQL delivery index in
 * PostgreSQL. Stateless: any number may run at once. Environment only; secrets also as `<NAME>_FILE`.
 */
export const deliverySettings = {
  databaseUrl: {
    env: 'LECTERN_DATABASE_URL',
    schema: z.string().url(),
    isSecret: true,
    doc: 'PostgreSQL URL (store and delivery index), e.g. postgres://user:pass@db:5432/lectern.',
  },
  host: { env: 'LECTERN_HOST', schema: z.string().min(1), default: '127.0.0.1', doc: 'Address to bind.' },
  deliveryPort: {
    env: 'LECTERN_DELIVERY_PORT',
    schema: port,
    default: '4401',
    doc: 'Port of the Delivery API (0: a free one).',
  },
  previewPort: {
    env: 'LECTERN_PREVIEW_PORT',
    schema: port,
    default: '4402',
    doc: 'Port of the Delivery Preview API (0: a free one).',
  },
  poolSize: {
    env: 'LECTERN_DATABASE_POOL_SIZE',
    schema: z.coerce.number().int().min(1).max(500),
    default: '10',
    doc: 'Connections to PostgreSQL held by this process.',
  },
  logLevel: {
    env: 'LECTERN_LOG_LEVEL',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    doc: 'One of fatal, error, warn, info, debug, trace, silent.',
  },
} satisfies Record<string, Setting<unknown>>;
