import { z } from 'zod';
import type { Setting } from './load-config.ts';

/** `host:port[,host:port…]`: bootstrap brokers. */
const brokerList = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'each broker must be host:port')).min(1));

/** Rows that several services' defaults tables share, so each reads and documents them alike. */
export const sharedSettings = {
  databaseUrl: {
    env: 'LECTERN_DATABASE_URL',
    schema: z.string().url(),
    isSecret: true,
    doc: 'PostgreSQL URL (store and delivery index), e.g. postgres://user:pass@db:5432/lectern.',
  },
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
  poolSize: {
    env: 'LECTERN_DATABASE_POOL_SIZE',
    schema: z.coerce.number().int().min(1).max(500),
    default: '10',
    doc: 'Connections to PostgreSQL held by this process.',
  },
  host: { env: 'LECTERN_HOST', schema: z.string().min(1), default: '127.0.0.1', doc: 'Address to bind.' },
  logLevel: {
    env: 'LECTERN_LOG_LEVEL',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    doc: 'One of fatal, error, warn, info, debug, trace, silent.',
  },
  /** Where e-mails go out (webhooks, management): environment only, the URL may hold a password. */
  smtpUrl: {
    env: 'LECTERN_SMTP_URL',
    schema: z.string().url().optional(),
    isSecret: true,
    doc: "SMTP server for e-mails (webhook failures, key expiry; people's password reset links when LECTERN_MANAGEMENT_PUBLIC_URL is set), e.g. smtp://user:pass@mail.example.com:587; unset: no e-mail (lectern users reset-link gives reset links).",
  },
  smtpFrom: {
    env: 'LECTERN_SMTP_FROM',
    schema: z.string().min(3),
    default: 'Lectern <lectern@localhost>',
    doc: 'Sender of the e-mails.',
  },
} satisfies Record<string, Setting<unknown>>;

/** The settings table as text, for `--help`. */
export function describeSettings(settings: Record<string, Setting<unknown>>): string {
  const rows = Object.values(settings).map((s) => {
    // A setting without a default is required unless its schema accepts it unset.
    const isOptional = s.default === undefined && s.schema.safeParse(undefined).success;
    const dflt =
      s.default !== undefined ? `default ${s.default === '' ? '""' : s.default}` : isOptional ? 'optional' : 'required';
    const file = s.isSecret ? ` (or ${s.env}_FILE)` : '';
    return `  ${s.env}${file}\n      ${s.doc} [${dflt}]`;
  });
  return rows.join('\n');
}
