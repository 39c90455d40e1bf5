import { z } from 'zod';
import { port, sharedSettings, type Setting } from '@lectern/config';
import { deliveryIndexSettings } from '@lectern/engines';
import { recsEmbeddingSettings } from '@lectern/recs-sql';
import { recsIndexSettings } from '@lectern/engines';

/**
 * The defaults table of the indexer in the cluster shape: it consumes change events from Kafka
 * and writes the delivery index (the search engine by default, or SQL tables in PostgreSQL). Environment only; secrets also as `<NAME>_FILE`.
 */
export const indexerSettings = {
  databaseUrl: sharedSettings.databaseUrl,
  kafkaBrokers: sharedSettings.kafkaBrokers,
  kafkaTopic: sharedSettings.kafkaTopic,
  ...deliveryIndexSettings,
  ...recsEmbeddingSettings,
  recsIndex: recsIndexSettings.recsIndex,
  recsIndexPrefix: recsIndexSettings.recsIndexPrefix,
  /** Rendered into every asset URL of the delivery documents. */
  assetsBaseUrl: {
    env: 'LECTERN_ASSETS_BASE_URL',
    schema: z
      .string()
      .url()
      .transform((u) => u.replace(/\/+$/, '')),
    doc: 'Public URL of asset binaries: the assets origin (LECTERN_ASSETS_PUBLIC_URL of Management) + /assets, e.g. https://assets.example.com/assets.',
  },
  host: sharedSettings.host,
  port: {
    env: 'LECTERN_PORT',
    schema: port,
    default: '4405',
    doc: 'Port of /healthz, /readyz and /metrics (0: a free one).',
  },
  logLevel: sharedSettings.logLevel,
} satisfies Record<string, Setting<unknown>>;
