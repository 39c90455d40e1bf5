import { z } from 'zod';
import { envBoolean, port, sharedSettings, type Setting } from '@lectern/config';

/** Settings of webhook delivery, read by the embedded start (each also a flag) and the webhooks service. */
export const webhookDeliverySettings = {
  webhooksAllowPrivate: {
    env: 'LECTERN_WEBHOOKS_ALLOW_PRIVATE',
    schema: envBoolean,
    default: 'false',
    doc: 'true: webhooks may reach loopback, private, link-local and metadata addresses (tests, local development); false: refused.',
  },
  webhooksTimeoutMs: {
    env: 'LECTERN_WEBHOOKS_TIMEOUT_MS',
    schema: z.coerce.number().int().min(1).max(600_000),
    default: '60000',
    doc: 'A receiver that has not answered within this many ms has failed (SPEC 6.4: 60000).',
  },
} satisfies Record<string, Setting<unknown>>;

/** Where the e-mails of SPEC 6.7 go out (environment only: the URL may hold a password). */
export const webhookMailSettings = {
  smtpUrl: sharedSettings.smtpUrl,
  smtpFrom: sharedSettings.smtpFrom,
} satisfies Record<string, Setting<unknown>>;

/**
 * The defaults table of the webhooks service in the cluster shape: consumes change events from
 * Kafka and delivers notifications. Environment only; secrets also as `<NAME>_FILE`.
 */
export const webhooksServiceSettings = {
  databaseUrl: sharedSettings.databaseUrl,
  kafkaBrokers: sharedSettings.kafkaBrokers,
  kafkaTopic: sharedSettings.kafkaTopic,
  ...webhookDeliverySettings,
  ...webhookMailSettings,
  host: sharedSettings.host,
  port: {
    env: 'LECTERN_PORT',
    schema: port,
    default: '4408',
    doc: 'Port of /healthz, /readyz and /metrics (0: a free one).',
  },
  logLevel: sharedSettings.logLevel,
} satisfies Record<string, Setting<unknown>>;
